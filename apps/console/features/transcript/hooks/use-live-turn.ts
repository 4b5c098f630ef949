'use client';

import type { LiveFeedEvent } from '@agentdesk/api-contract';
import { useEffect, useRef, useState } from 'react';
import { followRelayedEvents } from '../../event-stream';
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
    // Whether the feed never opened, broke, or the API ended it (this reader fell behind, or the
    // server stopped): the page polls instead.
    const pollInstead = () => {
      if (!abort.signal.aborted) setState('unavailable');
    };
    followRelayedEvents<LiveFeedEvent>(`/sessions/${encodeURIComponent(sessionId)}/live`, abort.signal, {
      onOpen: () => setState('open'),
      onEvent: (event) => {
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
      },
    }).then(pollInstead, pollInstead);
    return () => abort.abort();
  }, [sessionId, enabled]);

  return { view, state };
}
