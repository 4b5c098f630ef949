import type { RunSummaryJson } from '@agentdesk/api-contract';
import { PrincipalLabel } from '../../people';
import { formatDateTime, formatDuration } from '../../transcript';

function outcomeOf(target: RunSummaryJson['targets'][number]): string {
  if (target.status === 'error') return 'error';
  if (target.valid === null) return 'no answer';
  return target.valid ? 'valid' : 'invalid';
}

/** Past runs, newest first; each opens on its own page. */
export function RunHistory({ runs }: { runs: readonly RunSummaryJson[] }) {
  if (runs.length === 0) return <p className="empty">No run yet: the first one appears here.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Structured-output runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Targets</th>
            <th scope="col">By</th>
            <th scope="col" className="number">
              Duration
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td data-label="Run">
                <a href={`/lab/runs/${run.id}`}>{run.name}</a>
              </td>
              <td data-label="Targets">
                <ul className="inline-list">
                  {run.targets.map((target, index) => (
                    <li key={index}>
                      <span className="mono">{target.model}</span>{' '}
                      <span className={`badge badge-result-${outcomeOf(target).replace(' ', '-')}`}>
                        {outcomeOf(target)}
                      </span>
                    </li>
                  ))}
                </ul>
              </td>
              <td data-label="By">
                <PrincipalLabel id={run.actorPrincipalId} name={run.actorName} />
              </td>
              <td className="number" data-label="Duration">
                {formatDuration(run.durationMs)}
              </td>
              <td data-label="Created">
                <time dateTime={run.createdAt}>{formatDateTime(run.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
