'use client';

import { toolResultPageJsonSchema, type ToolResultPageJson } from '@agentdesk/api-contract';
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
      const page = await fetchFromConsole(
        `/sessions/${encodeURIComponent(sessionId)}/tool-results/${encodeURIComponent(toolCallId)}?offset=${offset}`,
        toolResultPageJsonSchema,
      );
      setPages((loaded) => [...loaded, page]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setLoading(false);
    }
  }

  if (last === undefined)
    return (
      <div className="full-result">
        <button type="button" onClick={() => void load(0)} disabled={loading}>
          {loading ? 'Loading the full result…' : 'Load the full stored result'}
        </button>
        {error !== undefined && (
          <p role="alert" className="alert">
            {error}
          </p>
        )}
      </div>
    );

  const shownUntil = last.offset + last.content.length;
  return (
    <section className="full-result" aria-label="Full stored result">
      <p className="muted" role="status">
        Full stored result: characters 1–{formatTokens(shownUntil)} of {formatTokens(last.totalCharacters)}
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
      {error !== undefined && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
    </section>
  );
}
