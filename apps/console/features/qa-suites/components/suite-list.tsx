import type { SuiteSummaryJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { formatPassRate } from '../format-rate';

/** The suites, newest first: size, version and the newest run's pass rate. */
export function SuiteList({ suites }: { suites: readonly SuiteSummaryJson[] }) {
  if (suites.length === 0) return <p className="empty">No suite yet: create or import one above.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">QA suites, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Suite</th>
            <th scope="col" className="number">
              Cases
            </th>
            <th scope="col" className="number">
              Targets
            </th>
            <th scope="col" className="number">
              Version
            </th>
            <th scope="col">Last run</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {suites.map((suite) => (
            <tr key={suite.id}>
              <td data-label="Suite">
                <a href={`/suites/${encodeURIComponent(suite.id)}`}>{suite.name}</a>
              </td>
              <td className="number">{suite.caseCount}</td>
              <td className="number">{suite.targetCount}</td>
              <td className="number">v{suite.latestVersion}</td>
              <td data-label="Last run">
                {suite.lastRun === null ? (
                  <span className="muted">never run</span>
                ) : (
                  <a href={`/suites/runs/${encodeURIComponent(suite.lastRun.id)}`}>
                    {formatPassRate(suite.lastRun.passRate)} passed · {suite.lastRun.status} ·{' '}
                    <time dateTime={suite.lastRun.createdAt}>{formatDateTime(suite.lastRun.createdAt)}</time>
                  </a>
                )}
              </td>
              <td data-label="Updated">
                <time dateTime={suite.updatedAt}>{formatDateTime(suite.updatedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
