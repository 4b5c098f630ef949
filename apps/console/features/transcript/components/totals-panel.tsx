import { CostText, type CostFields } from '../../cost';
import type { TranscriptTotals } from '../transcript-model';
import { formatDuration, formatTokens } from '../format';

/**
 * The session at a glance: turns, failures, latency, calls, tokens by kind and the cost (the
 * session's, as the API computed it when each answer was written: unknown when a model had no price).
 */
export function TotalsPanel({
  totals,
  complete,
  cost,
}: {
  totals: TranscriptTotals;
  complete: boolean;
  cost?: CostFields | undefined;
}) {
  const figures: [string, string][] = [
    ['Turns', String(totals.turns)],
    ['Failed turns', String(totals.failedTurns)],
    ['Running turns', String(totals.runningTurns)],
    ['Model calls', String(totals.modelCalls)],
    ['Tool calls', String(totals.toolCalls)],
    ['Compressions', String(totals.compressions)],
    ['Input tokens', formatTokens(totals.usage.input)],
    ['Output tokens', formatTokens(totals.usage.output)],
    ['Thinking tokens', formatTokens(totals.usage.thinking)],
    ['Cached tokens', formatTokens(totals.usage.cached)],
    ['Total latency', formatDuration(totals.latencyTotalMs)],
    [
      'Mean turn latency',
      totals.latencyAverageMs === undefined ? '—' : formatDuration(totals.latencyAverageMs),
    ],
    ['Slowest turn', totals.latencySlowestMs === undefined ? '—' : formatDuration(totals.latencySlowestMs)],
  ];
  return (
    <section aria-label="Session totals" className="totals" aria-busy={!complete}>
      <dl>
        {figures.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {cost !== undefined && (
          <div>
            <dt>Cost</dt>
            <dd>
              <CostText cost={cost} />
            </dd>
          </div>
        )}
      </dl>
      {!complete && <p className="muted">Totals so far: the rest of the transcript is loading.</p>}
    </section>
  );
}
