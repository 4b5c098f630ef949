import { formatDuration } from '../format';
import type { Turn } from '../transcript-model';
import { UsageLine } from './usage-line';

/** The heading row of a turn: its number, state, model calls, duration and usage. */
export function TurnHeader({ turn }: { turn: Turn }) {
  const headingId = `turn-${turn.number}`;
  // A region per turn heading (its messages follow as rows of the virtualized list, not inside it).
  return (
    <section className={`turn-header${turn.failed ? ' turn-failed' : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{turn.number === 0 ? 'Before the first message' : `Turn ${turn.number}`}</h2>
      {turn.failed && <span className="badge badge-failed">failed</span>}
      {turn.running && <span className="badge badge-pending">running</span>}
      <span className="muted">
        {turn.modelCalls} model call{turn.modelCalls === 1 ? '' : 's'}
        {turn.durationMs !== undefined && <> · {formatDuration(turn.durationMs)}</>}
      </span>
      <UsageLine usage={turn.usage} />
    </section>
  );
}
