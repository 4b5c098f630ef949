import type { JsonDiffEntry } from '@agentdesk/api-contract';

function valueText(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** Two outputs' differences, one line per JSON pointer: what was added, removed or changed. */
export function JsonDiffList({ diff }: { diff: readonly JsonDiffEntry[] }) {
  if (diff.length === 0) return <p className="muted">The two outputs are the same.</p>;
  return (
    <ul className="json-diff" aria-label="Differences between the two outputs">
      {diff.map((entry, index) => (
        <li key={index} className={`diff-${entry.op}`}>
          <code>{entry.pointer === '' ? '/' : entry.pointer}</code> <strong>{entry.op}</strong>
          {entry.op !== 'added' && (
            <>
              {' '}
              before <code>{valueText(entry.before)}</code>
            </>
          )}
          {entry.op !== 'removed' && (
            <>
              {' '}
              after <code>{valueText(entry.after)}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
