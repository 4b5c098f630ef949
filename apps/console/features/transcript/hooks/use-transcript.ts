'use client';

import type { PageJson } from '@agentdesk/api-contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { withLiveTurn } from '../live-feed-model';
import { turnMayBeRunning } from '../live-turn';
import type { CheckedMessage } from '../transcript-model';
import { fetchFromConsole } from './console-fetch';
import { useLiveTurn, type LiveFeedState } from './use-live-turn';

/** How often a running turn is read again when its live feed cannot be opened. */
const LIVE_POLL_MS = 1_000;

/** A keyset page as it was read, with the cursor that read it (so it can be read again). */
interface LoadedPage extends PageJson<CheckedMessage> {
  cursor: string | null;
}

export interface TranscriptState {
  /** The stored messages, with what the live feed showed of a running turn laid over them. */
  messages: CheckedMessage[];
  /** Every page has been read (the last one has no next cursor). */
  complete: boolean;
  /** A turn is still running: the page follows it until it ends. */
  live: boolean;
  /** How the page follows it: the API's live feed, or (`unavailable`) reading the transcript again every second. */
  feed: LiveFeedState;
  error: string | undefined;
}

const pagePath = (sessionId: string, cursor: string | null) =>
  `/sessions/${encodeURIComponent(sessionId)}/messages${cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`}`;

/**
 * The transcript, read progressively: the server rendered the first page; the rest follow one keyset
 * page after another. While a turn runs, the page follows the session's live feed — the answer's
 * text, tool calls and results as they happen — and reads the stored transcript again once the turn
 * ends. When the feed cannot be opened, the page holding the first unfinished message (and all
 * after it) is read again every second instead.
 */
export function useTranscript(sessionId: string, firstPage: PageJson<CheckedMessage>): TranscriptState {
  const [pages, setPages] = useState<LoadedPage[]>([{ cursor: null, ...firstPage }]);
  const [error, setError] = useState<string | undefined>();
  const lastPage = pages[pages.length - 1];
  const complete = lastPage === undefined || lastPage.nextCursor === null;
  const stored = useMemo(() => pages.flatMap((page) => page.items), [pages]);
  const storedLive =
    complete &&
    turnMayBeRunning(
      stored.map((entry) => entry.message),
      Date.now(),
    );
  const pagesRef = useRef(pages);
  pagesRef.current = pages;

  /** Reads again from the page holding the first unfinished message, or else the last page (new steps land there). */
  const rereadTail = useCallback(async (): Promise<void> => {
    const loaded = pagesRef.current;
    const pendingPage = loaded.findIndex((page) =>
      page.items.some((entry) => entry.message.status === 'pending'),
    );
    const reread = pendingPage === -1 ? loaded.length - 1 : pendingPage;
    const cursor = loaded[reread]?.cursor ?? null;
    try {
      const page = await fetchFromConsole<PageJson<CheckedMessage>>(pagePath(sessionId, cursor));
      setPages((current) => [...current.slice(0, reread), { cursor, ...page }]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }, [sessionId]);

  const [feedWanted, setFeedWanted] = useState(false);
  const { view, state: feed } = useLiveTurn(sessionId, feedWanted && error === undefined, {
    onSnapshot: (afterSeq) => {
      // Messages stored between the page's last read and the feed's start: read them, or they would be missing.
      const newest = pagesRef.current.flatMap((page) => page.items).at(-1)?.message.seq ?? 0;
      if (afterSeq > newest) void rereadTail();
    },
    onTurnEnd: rereadTail,
  });
  const live = storedLive || view.running;
  useEffect(() => {
    // Opened while a turn may run; kept open until the stored transcript shows the turn ended.
    setFeedWanted(complete && live);
  }, [complete, live]);

  const messages = useMemo(() => withLiveTurn(stored, view, sessionId), [stored, view, sessionId]);

  useEffect(() => {
    if (complete || lastPage === undefined || error !== undefined) return;
    const cursor = lastPage.nextCursor;
    let cancelled = false;
    fetchFromConsole<PageJson<CheckedMessage>>(pagePath(sessionId, cursor)).then(
      (page) => {
        if (!cancelled) setPages((loaded) => [...loaded, { cursor, ...page }]);
      },
      (failure: unknown) => {
        if (!cancelled) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [sessionId, complete, lastPage, error]);

  useEffect(() => {
    // The fallback: only when the live feed could not be opened (or the API ended it).
    if (!storedLive || error !== undefined || feed !== 'unavailable') return;
    const timer = setTimeout(() => void rereadTail(), LIVE_POLL_MS);
    return () => clearTimeout(timer);
  }, [storedLive, pages, error, feed, rereadTail]);

  return { messages, complete, live, feed, error };
}
