import { formatDuration } from '../format';
import type { Turn } from '../transcript-model';
import { MessageView } from './message-view';
import { UsageLine } from './usage-line';

export function TurnView({ turn }: { turn: Turn }) {
  const headingId = `turn-${turn.number}`;
  return (
    <section className={`turn${turn.failed ? ' turn-failed' : ''}`} aria-labelledby={headingId}>
      <header className="turn-header">
        <h2 id={headingId}>{turn.number === 0 ? 'Before the first message' : `Turn ${turn.number}`}</h2>
        {turn.failed && <span className="badge badge-failed">failed</span>}
        {turn.running && <span className="badge badge-pending">running</span>}
        <span className="muted">
          {turn.modelCalls} model call{turn.modelCalls === 1 ? '' : 's'}
          {turn.durationMs !== undefined && <> · {formatDuration(turn.durationMs)}</>}
        </span>
        <UsageLine usage={turn.usage} />
      </header>
      {turn.messages.map((entry) => (
        <MessageView key={entry.message.id} entry={entry} />
      ))}
    </section>
  );
}
