'use client';

import type { ToolResultPageJson } from '@agentdesk/api-contract';
import { useState } from 'react';
import { fetchFromConsole } from '../hooks/console-fetch';
import { storedResultWording } from '../tool-result-wording';

/**
 * The full output of a tool call as the tool returned it (the model may have seen a shorter copy),
 * read from the API's store on demand one page at a time, paged both ways.
 */
export function FullToolResult({
  sessionId,
  toolCallId,
  modelCharacters,
}: {
  sessionId: string;
  toolCallId: string;
  /** Characters the model was given (the transcript's copy), when one was recorded. */
  modelCharacters: number | undefined;
}) {
  const [page, setPage] = useState<ToolResultPageJson | undefined>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function load(offset: number) {
    setLoading(true);
    setError(undefined);
    try {
      setPage(
        await fetchFromConsole<ToolResultPageJson>(
          `/sessions/${encodeURIComponent(sessionId)}/tool-results/${encodeURIComponent(toolCallId)}?offset=${offset}`,
        ),
      );
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
        if (event.currentTarget.open && page === undefined && !loading) void load(0);
      }}
    >
      <summary>Show the stored result, as the tool returned it</summary>
      {page === undefined ? (
        loading && <p className="muted">Loading the stored result…</p>
      ) : (
        <section aria-label="Stored result">
          <p className="muted" role="status">
            {storedResultWording({
              modelCharacters,
              storedCharacters: page.totalCharacters,
              pageStart: page.offset,
              pageEnd: page.offset + page.content.length,
            })}
          </p>
          <pre className="block" tabIndex={0}>
            {page.content}
          </pre>
          {(page.previousOffset !== null || page.nextOffset !== null) && (
            <nav aria-label="Pages of the stored result" className="result-pager">
              <button
                type="button"
                onClick={() => void load(page.previousOffset ?? 0)}
                disabled={loading || page.previousOffset === null}
              >
                Previous page
              </button>
              <button
                type="button"
                onClick={() => void load(page.nextOffset ?? 0)}
                disabled={loading || page.nextOffset === null}
              >
                {loading ? 'Loading…' : 'Next page'}
              </button>
            </nav>
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
