import type { SuiteRunSummaryJson } from '@agentdesk/api-contract';
import { PrincipalLabel } from '../../people';
import { formatDateTime } from '../../transcript';
import { formatPassRate } from '../format-rate';

/** A run's pass rate over its judged cells, all targets together; null when none was judged. */
export function overallPassRate(run: Pick<SuiteRunSummaryJson, 'byTarget'>): number | null {
  const passed = run.byTarget.reduce((sum, rate) => sum + rate.passed, 0);
  const judged = run.byTarget.reduce((sum, rate) => sum + rate.judged, 0);
  return judged === 0 ? null : passed / judged;
}

/**
 * A suite's runs, newest first: version, status, pass rate and counts, and for every earlier run a
 * link that compares the suite's latest run with it (any run, however old, paged here).
 */
export function SuiteRuns({
  runs,
  latestRunId,
}: {
  runs: readonly SuiteRunSummaryJson[];
  latestRunId: string | undefined;
}) {
  if (runs.length === 0) return <p className="empty">No run yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Runs of the suite, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col" className="number">
              Pass rate
            </th>
            <th scope="col" className="number">
              Passed / failed / errors / done
            </th>
            <th scope="col">By</th>
            <th scope="col">Compare</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                <a href={`/suites/runs/${encodeURIComponent(run.id)}`}>
                  v{run.suiteVersion} · <time dateTime={run.createdAt}>{formatDateTime(run.createdAt)}</time>
                </a>
              </td>
              <td>
                <span className={`badge run-status run-status-${run.status}`}>{run.status}</span>
              </td>
              <td className="number">{formatPassRate(overallPassRate(run))}</td>
              <td className="number">
                {run.counts.passed} / {run.counts.failed} / {run.counts.errored} / {run.counts.done} of{' '}
                {run.counts.total}
              </td>
              <td>
                <PrincipalLabel id={run.createdBy} name={run.createdByName} />
              </td>
              <td>
                {latestRunId === undefined || run.id === latestRunId ? (
                  <span className="muted">{run.id === latestRunId ? 'Latest' : ''}</span>
                ) : (
                  <a
                    href={`/suites/runs/${encodeURIComponent(latestRunId)}?against=${encodeURIComponent(run.id)}`}
                  >
                    Latest run vs this
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
