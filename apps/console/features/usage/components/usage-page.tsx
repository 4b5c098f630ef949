import { can } from '@agentdesk/authz';
import type { UsageReportJson } from '@agentdesk/api-contract';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import { layoutUsageChart } from '../chart-layout';
import { loadUsage } from '../server/load-usage';
import type { SearchParams } from '../../url-state';
import { parseUsageView } from '../usage-view';
import { UsageChart } from './usage-chart';
import { UsageControls } from './usage-controls';
import { UsageTable, UsageTotals } from './usage-table';

/** Tokens per day by model, provider, portal or user; the grouping and range live in the URL. */
export async function UsagePage({ searchParams }: { searchParams: SearchParams }) {
  const signedIn = await requireSignIn();
  const { view, problems } = parseUsageView(searchParams);
  const mayRead = can(signedIn.principal, 'usage:read');
  let report: UsageReportJson | undefined;
  let failure: unknown;
  if (mayRead && problems.length === 0) {
    try {
      report = await loadUsage(signedIn.apiKey, view);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/usage">
      <h1>Usage</h1>
      <p className="muted">
        Tokens of every model call that reported usage, per UTC day. Reading it is recorded in the audit log.
      </p>
      {!mayRead && <p className="notice">Your role ({signedIn.identity.role}) may not read usage.</p>}
      {mayRead && <UsageControls view={view} />}
      {problems.length > 0 && (
        <ul role="alert" className="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {failure !== undefined && <ApiProblem error={failure} />}
      {report !== undefined && (
        <>
          <UsageTotals report={report} />
          {report.items.length === 0 ? (
            <p className="notice">
              No model call reported usage from {report.from} to {report.to}.
            </p>
          ) : (
            <>
              <UsageChart layout={layoutUsageChart(report)} groupBy={report.groupBy} />
              <UsageTable report={report} />
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
