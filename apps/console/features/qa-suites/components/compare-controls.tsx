import type { SuiteRunSummaryJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import type { RunPageQuery } from '../run-page-query';

/**
 * "Compare with": a plain GET form (the comparison lives in the URL, so it can be shared): the
 * newest earlier finished run by default, any other run of the suite, or none.
 */
export function CompareControls({
  runId,
  query,
  otherRuns,
}: {
  runId: string;
  query: RunPageQuery;
  otherRuns: readonly SuiteRunSummaryJson[];
}) {
  // A run older than the newest few (opened from the suite page's run list) is not among the
  // options: it gets its own, so the form says what is being compared rather than "latest".
  const againstUnlisted =
    query.against !== undefined &&
    query.against !== 'latest' &&
    !otherRuns.some((other) => other.id === query.against)
      ? query.against
      : undefined;
  return (
    <form
      method="get"
      action={`/suites/runs/${encodeURIComponent(runId)}`}
      className="filters compare-controls"
      aria-label="Compare runs"
    >
      <label>
        Compare with
        <select name="against" defaultValue={query.against ?? 'latest'}>
          <option value="latest">The latest earlier run</option>
          {againstUnlisted !== undefined && (
            <option value={againstUnlisted}>Run {againstUnlisted} (an older run)</option>
          )}
          {otherRuns.map((other) => (
            <option key={other.id} value={other.id}>
              v{other.suiteVersion} · {formatDateTime(other.createdAt)} · {other.status}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" name="only" value="changes" defaultChecked={query.onlyChanges} />
        Only changes
      </label>
      <div className="actions">
        <button type="submit">Compare</button>
        {query.against !== undefined && (
          <a href={`/suites/runs/${encodeURIComponent(runId)}`}>Stop comparing</a>
        )}
      </div>
    </form>
  );
}
