import { can } from '@agentdesk/authz';
import { targetLabel, type SuiteRunJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { TargetResultPanel } from '../../lab';
import { PrincipalLabel } from '../../people';
import { ApiProblem, ConsoleShell, MissingScopeNotice, notFoundWhenApiSaysSo } from '../../shell';
import { formatDateTime } from '../../transcript';
import type { SearchParams } from '../../url-state';
import { matrixOf } from '../matrix-model';
import { parseRunPageQuery, runPageHref, type RunPageQuery } from '../run-page-query';
import { readRunPageData, type OpenedDetail, type RunPageData } from '../server/read-run-page';
import { readSuiteRun } from '../server/read-suites';
import { AssertionOutcomes, CellDetail, ComparedCellDetail } from './cell-detail';
import { CompareControls } from './compare-controls';
import { ComparisonSummary } from './comparison-summary';
import { AssertionKindRates, TargetRates } from './pass-rate-tables';
import { RunLiveView } from './run-live-view';

function DetailSection({
  run,
  query,
  detail,
}: {
  run: SuiteRunJson;
  query: RunPageQuery;
  detail: OpenedDetail;
}) {
  const caseId = query.caseId ?? '';
  const labels = run.targets.map(targetLabel);
  const heading =
    detail.kind === 'case'
      ? `Case ${caseId} across targets`
      : `Case ${caseId} on ${labels[detail.targetIndex] ?? ''}`;
  return (
    <section id="cell-detail" aria-labelledby="cell-detail-heading" className="card cell-detail">
      <h2 id="cell-detail-heading">{heading}</h2>
      <p>
        <a href={runPageHref(run.id, { against: query.against, onlyChanges: query.onlyChanges })}>Close</a>
      </p>
      {detail.kind === 'cell' &&
        (detail.cell.ok ? <CellDetail cell={detail.cell.data} /> : <ApiProblem error={detail.cell.error} />)}
      {detail.kind === 'compared-cell' &&
        (detail.compared.ok ? (
          <ComparedCellDetail compared={detail.compared.data} againstRunId={detail.againstRunId} />
        ) : (
          <ApiProblem error={detail.compared.error} />
        ))}
      {detail.kind === 'case' && (
        <div className="results-grid">
          {detail.cells.map((outcome, index) =>
            outcome.ok ? (
              <div key={index}>
                <h3 className="mono">{labels[index]}</h3>
                <AssertionOutcomes cell={outcome.data} />
                {outcome.data.result === null ? (
                  <p className="muted">No result yet.</p>
                ) : (
                  <TargetResultPanel result={outcome.data.result} />
                )}
              </div>
            ) : (
              <ApiProblem key={index} error={outcome.error} />
            ),
          )}
        </div>
      )}
    </section>
  );
}

function ComparisonSection({
  run,
  query,
  data,
}: {
  run: SuiteRunJson;
  query: RunPageQuery;
  data: RunPageData;
}) {
  return (
    <section aria-labelledby="compare-heading" className="card">
      <h2 id="compare-heading">Compare with an earlier run</h2>
      <CompareControls runId={run.id} query={query} otherRuns={data.otherRuns} />
      {data.comparison !== undefined &&
        (data.comparison.ok ? (
          <ComparisonSummary comparison={data.comparison.data} caseIds={run.cases.map((c) => c.id)} />
        ) : (
          <ApiProblem error={data.comparison.error} />
        ))}
    </section>
  );
}

/**
 * A suite run: who ran which version when, its progress live while it runs, the case × target
 * matrix, pass rates, cost and latency, a comparison with an earlier run, and the opened cell.
 */
export async function SuiteRunPage({
  access,
  runId,
  searchParams,
}: {
  access: PageAccess;
  runId: string;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const query = parseRunPageQuery(searchParams);
  let run: SuiteRunJson | undefined;
  let data: RunPageData | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      run = await readSuiteRun(signedIn.credential, runId);
      data = await readRunPageData(signedIn.credential, run, query);
    } catch (error) {
      notFoundWhenApiSaysSo(error);
      failure = error;
    }
  }
  const targetLabels = run?.targets.map(targetLabel) ?? [];
  return (
    <ConsoleShell signedIn={signedIn} current="/suites">
      {run === undefined ? (
        <>
          <p>
            <a href="/suites">← Suites</a>
          </p>
          <h1>Run not available</h1>
          {!mayRead && <MissingScopeNotice access={access} readWhat="read QA suites and their runs" />}
          {failure !== undefined && <ApiProblem error={failure} />}
        </>
      ) : (
        <>
          <p>
            <a href={`/suites/${encodeURIComponent(run.suiteId)}`}>← {run.suiteName}</a>
          </p>
          <h1>
            Run of {run.suiteName} v{run.suiteVersion}
          </h1>
          <p className="muted">
            Run <span className="mono">{run.id}</span> by{' '}
            <PrincipalLabel id={run.createdBy} name={run.createdByName} />, started{' '}
            <time dateTime={run.createdAt}>{formatDateTime(run.createdAt)}</time>
            {run.finishedAt !== null && (
              <>
                , finished <time dateTime={run.finishedAt}>{formatDateTime(run.finishedAt)}</time>
              </>
            )}
            . {run.cases.length} {run.cases.length === 1 ? 'case' : 'cases'} × {run.targets.length}{' '}
            {run.targets.length === 1 ? 'target' : 'targets'}.
          </p>
          <RunLiveView
            runId={run.id}
            initialStatus={run.status}
            initialMatrix={matrixOf(run)}
            targetLabels={targetLabels}
            changes={data?.changes ?? null}
            shownCaseIds={data?.shownCaseIds ?? null}
            hrefBase={runPageHref(run.id, { against: query.against, onlyChanges: query.onlyChanges })}
            opened={
              query.caseId === undefined ? null : { caseId: query.caseId, targetIndex: query.targetIndex }
            }
            mayCancel={can(signedIn.principal, 'suites:run')}
          >
            {data !== undefined && <ComparisonSection run={run} query={query} data={data} />}
          </RunLiveView>
          {data?.detail !== undefined && <DetailSection run={run} query={query} detail={data.detail} />}
          <section aria-labelledby="rates-heading">
            <h2 id="rates-heading">Pass rate, cost and latency per target</h2>
            <TargetRates rates={run.byTarget} />
            <h2>Pass rate per assertion kind</h2>
            <AssertionKindRates rates={run.byAssertionKind} />
          </section>
        </>
      )}
    </ConsoleShell>
  );
}
