import { targetLabel, type AssertionOutcomeJson, type CellJson } from '@agentdesk/api-contract';
import { CallCostText } from '../../cost';
import { TargetResultPanel } from '../../lab';
import { formatDateTime, formatTokens } from '../../transcript';
import type { CellComparisonJson } from '@agentdesk/api-contract';
import { formatLatency } from '../format-rate';
import { cellLabel } from '../matrix-model';
import { JsonDiffList } from './json-diff-list';

function outcomeText(outcome: AssertionOutcomeJson): string {
  if (outcome.passed === null) return 'not judged';
  return outcome.passed ? 'passed' : 'failed';
}

/** Each assertion of a cell: its kind, what it checked, and how it came out, in words. */
export function AssertionOutcomes({ cell }: { cell: CellJson }) {
  if (cell.assertions.length === 0)
    return <p className="muted">No assertion was judged (the cell did not finish, or errored).</p>;
  return (
    <div className="table-scroll">
      <table aria-label={`Assertions of ${cell.caseId} on ${targetLabel(cell.target)}`}>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Assertion</th>
            <th scope="col">Outcome</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {cell.assertions.map((outcome, index) => (
            <tr key={index}>
              <td className="assertion-kind">{outcome.kind}</td>
              <td className="wrap-anywhere">{outcome.label}</td>
              <td>
                <span className={`badge badge-assertion-${outcomeText(outcome).replace(' ', '-')}`}>
                  {outcomeText(outcome)}
                </span>
              </td>
              <td className="wrap-anywhere">{outcome.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The cell's facts in one line: outcome, latency, tokens, cost, attempts, when. */
function CellFacts({ cell }: { cell: CellJson }) {
  return (
    <p className="usage">
      <span className={`cell cell-${cell.status}`}>{cellLabel(cell)}</span>
      {' · '}
      {formatLatency(cell.latencyMs)}
      {cell.inputTokens !== null &&
        ` · ${formatTokens(cell.inputTokens)} in / ${formatTokens(cell.outputTokens ?? 0)} out`}
      {' · cost '}
      <CallCostText costMicros={cell.costMicros} />
      {` · ${cell.attempts} ${cell.attempts === 1 ? 'attempt' : 'attempts'}`}
      {cell.finishedAt !== null && (
        <>
          {' · finished '}
          <time dateTime={cell.finishedAt}>{formatDateTime(cell.finishedAt)}</time>
        </>
      )}
      {cell.reason !== null && ` · ${cell.reason}`}
    </p>
  );
}

/** One cell whole: its assertions, then what the lab keeps (request, raw output, parsed JSON, validation). */
export function CellDetail({ cell }: { cell: CellJson }) {
  return (
    <>
      <CellFacts cell={cell} />
      <h3>Assertions</h3>
      <AssertionOutcomes cell={cell} />
      {cell.result === null ? (
        <p className="muted">
          No result: the cell has not run{cell.reason === null ? '' : ` (${cell.reason})`}.
        </p>
      ) : (
        <div className="results-grid single">
          <TargetResultPanel result={cell.result} />
        </div>
      )}
    </>
  );
}

/** One case on one target in two runs: the JSON diff of the outputs, then both cells side by side. */
export function ComparedCellDetail({
  compared,
  againstRunId,
}: {
  compared: CellComparisonJson;
  againstRunId: string;
}) {
  return (
    <>
      <h3>What changed in the output</h3>
      <JsonDiffList diff={compared.diff} />
      <div className="compare-grid">
        <section aria-label="Earlier run’s cell">
          <h3>
            Before <span className="muted">(run {againstRunId})</span>
          </h3>
          {compared.before === null ? (
            <p className="muted">The earlier run had no such cell.</p>
          ) : (
            <CellDetail cell={compared.before} />
          )}
        </section>
        <section aria-label="This run’s cell">
          <h3>After (this run)</h3>
          {compared.after === null ? (
            <p className="muted">This run has no such cell.</p>
          ) : (
            <CellDetail cell={compared.after} />
          )}
        </section>
      </div>
    </>
  );
}
