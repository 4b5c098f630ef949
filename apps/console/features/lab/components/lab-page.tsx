import type { PageJson, RunSummaryJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import { exampleSchemaText } from '../example-schema';
import { checkSchemaText } from '../schema-check';
import { listRuns, suggestedModels } from '../server/read-lab';
import { LabRunForm } from './lab-run-form';
import { RunHistory } from './run-history';

/** The structured-output lab: a new run (for those who may run one) and the run history. */
export async function LabPage({ cursor }: { cursor: string | undefined }) {
  const signedIn = await requireSignIn();
  const canRun = can(signedIn.principal, 'lab:run');
  let history: PageJson<RunSummaryJson> | undefined;
  let failure: unknown;
  const [models] = await Promise.all([
    canRun ? suggestedModels(signedIn.credential) : undefined,
    listRuns(signedIn.credential, cursor).then(
      (page) => {
        history = page;
      },
      (error: unknown) => {
        failure = error;
      },
    ),
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
        {failure !== undefined && <ApiProblem error={failure} />}
        {history !== undefined && (
          <>
            <RunHistory runs={history.items} />
            <nav aria-label="Pages of runs" className="pager">
              {cursor !== undefined && <a href="/lab">Newest runs</a>}
              {history.nextCursor !== null && (
                <a href={`/lab?cursor=${encodeURIComponent(history.nextCursor)}`} rel="next">
                  Older runs
                </a>
              )}
            </nav>
          </>
        )}
      </section>
    </ConsoleShell>
  );
}
