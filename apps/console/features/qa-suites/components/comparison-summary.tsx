import type { RunComparisonJson } from '@agentdesk/api-contract';
import { comparisonCountsText, indexComparison } from '../comparison-model';
import { formatPassRate } from '../format-rate';

/** A comparison in short: its counts, the cases removed since, and each target's pass rate before and after. */
export function ComparisonSummary({
  comparison,
  caseIds,
}: {
  comparison: RunComparisonJson;
  caseIds: readonly string[];
}) {
  const removed = indexComparison(comparison, caseIds).removed;
  return (
    <>
      <p role="status" className="comparison-counts">
        Against run{' '}
        <a href={`/suites/runs/${encodeURIComponent(comparison.againstRunId)}`} className="mono">
          {comparison.againstRunId}
        </a>
        : {comparisonCountsText(comparison.counts).join(' · ')}
      </p>
      {removed.length > 0 && (
        <>
          <h3>Removed since</h3>
          <ul aria-label="Removed cases">
            {removed.map((cell, index) => (
              <li key={index}>
                <code>{cell.caseId}</code> on <code>{cell.target}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Pass rate per target, before and after</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col" className="number">
                Before
              </th>
              <th scope="col" className="number">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {comparison.byTarget.map((row) => (
              <tr key={row.target}>
                <th scope="row" className="mono">
                  {row.target}
                </th>
                <td className="number">{formatPassRate(row.before)}</td>
                <td className="number">{formatPassRate(row.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
