'use client';

import type { LiveFeedEvent } from '@agentdesk/api-contract';
import { useEffect, useRef, useState } from 'react';
import { createEventStreamParser } from '../../event-stream';
import { applyLiveEvent, emptyLiveTurn, type LiveTurnView } from '../live-feed-model';

/** Whether the live feed is open; `unavailable` sends the page back to reading the transcript again and again. */
export type LiveFeedState = 'off' | 'connecting' | 'open' | 'unavailable';

export interface LiveTurnCallbacks {
  /** The feed follows on from this stored seq: read the transcript again if the page has less. */
  onSnapshot(afterSeq: number): void;
  /** A turn ended: read the stored transcript again (once); resolves when it was read. */
  onTurnEnd(): Promise<void>;
}

/**
 * Follows a session's running turns through the console's relay of the API's live feed while
 * `enabled`: the view grows as text deltas, tool calls and results arrive; when a turn ends the
 * stored transcript is read again and the view is emptied (the stored messages show the turn).
 */
export function useLiveTurn(
  sessionId: string,
  enabled: boolean,
  callbacks: LiveTurnCallbacks,
): { view: LiveTurnView; state: LiveFeedState } {
  const [view, setView] = useState<LiveTurnView>(emptyLiveTurn);
  const [state, setState] = useState<LiveFeedState>('off');
  const latest = useRef(callbacks);
  latest.current = callbacks;

  useEffect(() => {
    if (!enabled) {
      setState('off');
      return;
    }
    const abort = new AbortController();
    setState('connecting');
    const feed = createEventStreamParser(({ data }) => {
      let event: LiveFeedEvent;
      try {
        // The console's route handler checked each event against the contract.
        event = JSON.parse(data) as LiveFeedEvent;
      } catch {
        return;
      }
      setView((current) => applyLiveEvent(current, event));
      if (event.type === 'snapshot') latest.current.onSnapshot(event.afterSeq);
      if (event.type === 'turn-end')
        void latest.current.onTurnEnd().then(() => {
          // The stored transcript now shows the turn: keep only where the feed stands.
          if (!abort.signal.aborted)
            setView((current) =>
              current.running ? current : { ...emptyLiveTurn, afterSeq: current.afterSeq },
            );
        });
    });
    async function follow(): Promise<void> {
      const response = await fetch(`/sessions/${encodeURIComponent(sessionId)}/live`, {
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
      // The API ended the feed (this reader fell behind, or the server stopped): poll instead.
      if (!abort.signal.aborted) setState('unavailable');
    }
    follow().catch(() => {
      if (!abort.signal.aborted) setState('unavailable');
    });
    return () => abort.abort();
  }, [sessionId, enabled]);

  return { view, state };
}
