'use client';

import type { ToolResultPageJson } from '@agentdesk/api-contract';
import { useState } from 'react';
import { formatTokens } from '../format';
import { fetchFromConsole } from '../hooks/console-fetch';

/**
 * The full output of a tool call as the tool returned it (the transcript may hold a truncated copy),
 * read from the API's store on demand, one page at a time.
 */
export function FullToolResult({ sessionId, toolCallId }: { sessionId: string; toolCallId: string }) {
  const [pages, setPages] = useState<ToolResultPageJson[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const last = pages[pages.length - 1];

  async function load(offset: number) {
    setLoading(true);
    setError(undefined);
    try {
      const page = await fetchFromConsole<ToolResultPageJson>(
        `/sessions/${encodeURIComponent(sessionId)}/tool-results/${encodeURIComponent(toolCallId)}?offset=${offset}`,
      );
      setPages((loaded) => [...loaded, page]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setLoading(false);
    }
  }

  // A disclosure, not a button: opening it only reads (the first page loads when it is first opened).
  return (
    <details
      className="full-result"
      onToggle={(event) => {
        if (event.currentTarget.open && pages.length === 0 && !loading) void load(0);
      }}
    >
      <summary>Show the full stored result (as the tool returned it)</summary>
      {last === undefined ? (
        loading && <p className="muted">Loading the full result…</p>
      ) : (
        <section aria-label="Full stored result">
          <p className="muted" role="status">
            Full stored result: characters 1–{formatTokens(last.offset + last.content.length)} of{' '}
            {formatTokens(last.totalCharacters)}
            {last.nextOffset === null ? ' (all of it)' : ''}.
          </p>
          <pre className="block" tabIndex={0}>
            {pages.map((page) => page.content).join('')}
          </pre>
          {last.nextOffset !== null && (
            <button type="button" onClick={() => void load(last.nextOffset ?? 0)} disabled={loading}>
              {loading ? 'Loading…' : 'Load the next page of the full result'}
            </button>
          )}
        </section>
      )}
      {error !== undefined && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
    </details>
  );
}
