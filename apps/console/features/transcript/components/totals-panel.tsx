import type { TranscriptTotals } from '../transcript-model';
import { formatTokens } from '../format';

/** The session at a glance: turns, failures, calls and tokens by kind. */
export function TotalsPanel({ totals }: { totals: TranscriptTotals }) {
  const figures: [string, string][] = [
    ['Turns', String(totals.turns)],
    ['Failed turns', String(totals.failedTurns)],
    ['Model calls', String(totals.modelCalls)],
    ['Tool calls', String(totals.toolCalls)],
    ['Compressions', String(totals.compressions)],
    ['Input tokens', formatTokens(totals.usage.input)],
    ['Output tokens', formatTokens(totals.usage.output)],
    ['Thinking tokens', formatTokens(totals.usage.thinking)],
    ['Cached tokens', formatTokens(totals.usage.cached)],
  ];
  return (
    <section aria-label="Session totals" className="totals">
      <dl>
        {figures.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
