'use client';

import type { RunProgressEvent } from '@agentdesk/api-contract';
import { useEffect, useRef, useState } from 'react';
import { followRelayedEvents } from '../../event-stream';

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
    followRelayedEvents<RunProgressEvent>(`/suites/runs/${encodeURIComponent(runId)}/events`, abort.signal, {
      onOpen: () => setState('open'),
      onEvent: (event) => latest.current(event),
    }).then(
      (end) => {
        if (!abort.signal.aborted) setState(end);
      },
      () => {
        if (!abort.signal.aborted) setState('unavailable');
      },
    );
    return () => abort.abort();
  }, [runId, enabled]);

  return state;
}
