import { can } from '@agentdesk/authz';
import type { UsageReportJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ExportLinks } from '../../exports';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { layoutUsageChart } from '../chart-layout';
import { loadUsage } from '../server/load-usage';
import { userNamesFor } from '../server/user-names';
import type { SearchParams } from '../../url-state';
import { parseUsageView, usageHref, type KeyNames } from '../usage-view';
import { UsageChart } from './usage-chart';
import { UsageControls } from './usage-controls';
import { UsageTable, UsageTotals } from './usage-table';

/** Tokens per day by model, provider, portal or user; the grouping and range live in the URL. */
export async function UsagePage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { view, problems } = parseUsageView(searchParams);
  let report: UsageReportJson | undefined;
  let failure: unknown;
  let names: KeyNames = new Map();
  if (mayRead && problems.length === 0) {
    try {
      report = await loadUsage(signedIn.credential, view);
    } catch (error) {
      failure = error;
    }
  }
  // Users are named, not shown by id, when the caller may list users (else the ids stay).
  if (report?.groupBy === 'user' && can(signedIn.principal, 'users:read'))
    names = await userNamesFor(
      signedIn.credential,
      report.totals.flatMap((total) => (total.key === null ? [] : [total.key])),
    );
  return (
    <ConsoleShell signedIn={signedIn} current="/usage">
      <h1>Usage</h1>
      <p className="muted">
        Tokens and cost of every model call that reported usage, per UTC day (each call costed with the price
        in effect when it was made; <a href="/prices">model prices</a>). Reading it is recorded in the audit
        log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="read usage" />}
      {mayRead && <UsageControls view={view} />}
      {problems.length > 0 && (
        <div role="alert" className="alert">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {failure !== undefined && <ApiProblem error={failure} />}
      {report !== undefined && (
        <>
          <UsageTotals report={report} />
          {/* Every model call of the range, one row each (the grouping is the chart's, not the file's). */}
          <ExportLinks list="usage" query={usageHref(view).split('?')[1] ?? ''} />
          {report.items.length === 0 ? (
            <p className="notice">
              No model call reported usage from {report.from} to {report.to}.
            </p>
          ) : (
            <>
              <UsageChart
                layout={layoutUsageChart(report, view.measure)}
                groupBy={report.groupBy}
                names={names}
                measure={view.measure}
              />
              <UsageTable report={report} names={names} />
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
