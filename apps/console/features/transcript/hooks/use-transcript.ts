'use client';

import type { PageJson } from '@agentdesk/api-contract';
import { useEffect, useMemo, useState } from 'react';
import { turnMayBeRunning } from '../live-turn';
import type { CheckedMessage } from '../transcript-model';
import { fetchFromConsole } from './console-fetch';

/** How often a running turn is read again. */
const LIVE_POLL_MS = 1_000;

/** A keyset page as it was read, with the cursor that read it (so it can be read again). */
interface LoadedPage extends PageJson<CheckedMessage> {
  cursor: string | null;
}

export interface TranscriptState {
  messages: CheckedMessage[];
  /** Every page has been read (the last one has no next cursor). */
  complete: boolean;
  /** A turn is still running: the page reads it again until it ends. */
  live: boolean;
  error: string | undefined;
}

const pagePath = (sessionId: string, cursor: string | null) =>
  `/sessions/${encodeURIComponent(sessionId)}/messages${cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`}`;

/**
 * The transcript, read progressively: the server rendered the first page; the rest follow one keyset
 * page after another. While a turn runs, the page holding its first unfinished message (and all
 * after it) is read again every second, so the answer appears without a reload.
 */
export function useTranscript(sessionId: string, firstPage: PageJson<CheckedMessage>): TranscriptState {
  const [pages, setPages] = useState<LoadedPage[]>([{ cursor: null, ...firstPage }]);
  const [error, setError] = useState<string | undefined>();
  const lastPage = pages[pages.length - 1];
  const complete = lastPage === undefined || lastPage.nextCursor === null;
  const messages = useMemo(() => pages.flatMap((page) => page.items), [pages]);
  const live =
    complete &&
    turnMayBeRunning(
      messages.map((entry) => entry.message),
      Date.now(),
    );

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
    if (!live || error !== undefined) return;
    // Read again from the page holding the first unfinished message, or else the last page (new steps land there).
    const pendingPage = pages.findIndex((page) =>
      page.items.some((entry) => entry.message.status === 'pending'),
    );
    const reread = pendingPage === -1 ? pages.length - 1 : pendingPage;
    const cursor = pages[reread]?.cursor ?? null;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchFromConsole<PageJson<CheckedMessage>>(pagePath(sessionId, cursor)).then(
        (page) => {
          if (!cancelled) setPages((loaded) => [...loaded.slice(0, reread), { cursor, ...page }]);
        },
        (failure: unknown) => {
          if (!cancelled) setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
    }, LIVE_POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [sessionId, live, pages, error]);

  return { messages, complete, live, error };
}
