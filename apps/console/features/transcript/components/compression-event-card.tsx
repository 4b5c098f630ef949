import type { CompressionEventJson } from '@agentdesk/api-contract';
import { formatDuration, formatTokens } from '../format';
import { RawJson } from './raw-json';

const methodNames: Record<CompressionEventJson['method'], string> = {
  none: 'no change',
  truncation: 'truncation',
  summary: 'summary',
};

/** What the scratchpad compressor did before a model call: tokens before and after, how, and what was cut. */
export function CompressionEventCard({ event }: { event: CompressionEventJson }) {
  return (
    <aside className="compression" aria-label="Scratchpad compression">
      <p>
        <strong>Scratchpad compressed</strong> by {methodNames[event.method]}:{' '}
        {event.tokensBeforeExact ? '' : '≈'}
        {formatTokens(event.tokensBefore)} → {formatTokens(event.tokensAfter)} tokens (budget{' '}
        {formatTokens(event.budgetTokens)}), {event.entriesBefore} → {event.entriesAfter} entries, in{' '}
        {formatDuration(event.durationMs)}.
      </p>
      {event.truncatedItems.length > 0 && (
        <ul>
          {event.truncatedItems.map((item) => (
            <li key={`${item.toolCallId}-${item.strategy}`}>
              Result of <code>{item.toolName}</code> cut ({item.strategy}): kept{' '}
              {formatTokens(item.keptCharacters)} of {formatTokens(item.originalCharacters)} characters; the
              model was told with an INCOMPLETE notice
              {item.storedResultId !== undefined && (
                <>
                  {' '}
                  and can page the original (<code>{item.storedResultId}</code>) with{' '}
                  <code>read_tool_result</code>
                </>
              )}
              .
            </li>
          ))}
        </ul>
      )}
      {event.summarizer.status !== 'not-needed' && (
        <p>
          Summarizer: {event.summarizer.status}
          {event.summarizer.error !== undefined && <> ({event.summarizer.error})</>}
        </p>
      )}
      <RawJson value={event} label="Raw JSON of the compression event" />
    </aside>
  );
}
