'use client';

import type { RunProgressEvent } from '@agentdesk/api-contract';
import { useEffect, useRef, useState } from 'react';
import { createEventStreamParser } from '../../event-stream';

/** Whether the progress stream is open; `unavailable`: the page shows what it has and says so. */
export type RunProgressState = 'off' | 'connecting' | 'open' | 'ended' | 'unavailable';

/**
 * Follows a running run's progress through the console's relay of the API's event stream while
 * `enabled`: each event (a snapshot, a batch of finished cells, the end) goes to `onEvent` as it
 * arrives.
 */
export function useRunProgress(
  runId: string,
  enabled: boolean,
  onEvent: (event: RunProgressEvent) => void,
): RunProgressState {
  const [state, setState] = useState<RunProgressState>('off');
  const latest = useRef(onEvent);
  latest.current = onEvent;

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    setState('connecting');
    const feed = createEventStreamParser(({ data }) => {
      let event: RunProgressEvent;
      try {
        // The console's route handler checked each event against the contract.
        event = JSON.parse(data) as RunProgressEvent;
      } catch {
        return;
      }
      latest.current(event);
    });
    async function follow(): Promise<void> {
      const response = await fetch(`/suites/runs/${encodeURIComponent(runId)}/events`, {
        headers: { accept: 'text/event-stream' },
        signal: abort.signal,
      });
      const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
      if (!response.ok || !isStream || response.body === null) {
        await response.body?.cancel();
        setState('unavailable');
        return;
      }
      setState('open');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feed(value);
      }
      if (!abort.signal.aborted) setState('ended');
    }
    follow().catch(() => {
      if (!abort.signal.aborted) setState('unavailable');
    });
    return () => abort.abort();
  }, [runId, enabled]);

  return state;
}
