import type { PageJson, RunSummaryJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, type SearchParams } from '../../url-state';
import { exampleSchemaText } from '../example-schema';
import { runHistoryQuery } from '../run-history-query';
import { checkSchemaText } from '../schema-check';
import { listRuns, suggestedModels } from '../server/read-lab';
import { LabRunForm } from './lab-run-form';
import { RunHistory } from './run-history';

/**
 * The structured-output lab: a new run (for those who may run one: `lab:run`) and the run history
 * (for those who may read it: the page's scope, `lab:read`).
 */
export async function LabPage({ access, searchParams }: { access: PageAccess; searchParams: SearchParams }) {
  const { signedIn, mayRead } = access;
  const canRun = can(signedIn.principal, 'lab:run');
  const { filters } = runHistoryQuery.parse(searchParams);
  let history: PageJson<RunSummaryJson> | undefined;
  let failure: unknown;
  const [models] = await Promise.all([
    canRun ? suggestedModels(signedIn.credential) : undefined,
    mayRead
      ? listRuns(signedIn.credential, filters.cursor).then(
          (page) => {
            history = page;
          },
          (error: unknown) => {
            failure = error;
          },
        )
      : undefined,
  ]);
  return (
    <ConsoleShell signedIn={signedIn} current="/lab">
      <h1>Structured-output lab</h1>
      <p className="muted">
        Try one JSON Schema and prompt on several models at once, and compare what each provider was sent and
        answered. Listing runs is recorded in the audit log.
      </p>
      {models !== undefined && (
        <LabRunForm suggestedModels={models} exampleCheck={checkSchemaText(exampleSchemaText)} />
      )}
      <section aria-labelledby="run-history-heading">
        <h2 id="run-history-heading">Run history</h2>
        {!mayRead && <MissingScopeNotice access={access} readWhat="read the lab’s runs" />}
        {failure !== undefined && <ApiProblem error={failure} />}
        {history !== undefined && (
          <>
            <RunHistory runs={history.items} />
            <PagerNav
              label="Pages of runs"
              links={runHistoryQuery.pagerLinks(filters, history.nextCursor)}
              firstText="Newest runs"
              nextText="Older runs"
            />
          </>
        )}
      </section>
    </ConsoleShell>
  );
}
