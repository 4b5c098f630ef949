import type { RunJson } from '@agentdesk/api-contract';
import type { ReactNode } from 'react';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice, notFoundWhenApiSaysSo } from '../../shell';
import { PrincipalLabel } from '../../people';
import { formatDateTime, formatDuration } from '../../transcript';
import { readRun } from '../server/read-lab';
import { TargetResultPanel } from './target-result-panel';

/**
 * One stored run, reopened by its URL: its inputs, then every target's result side by side.
 * `saveAsCase` adds what keeps the run as a QA suite's case (the page composes the two features).
 */
export async function RunPage({
  access,
  runId,
  saveAsCase,
}: {
  access: PageAccess;
  runId: string;
  saveAsCase?: (run: RunJson) => ReactNode;
}) {
  const { signedIn, mayRead } = access;
  let run: RunJson | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      run = await readRun(signedIn.credential, runId);
    } catch (error) {
      notFoundWhenApiSaysSo(error);
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/lab">
      <p>
        <a href="/lab">← Structured-output lab</a>
      </p>
      {!mayRead && (
        <>
          <h1>Run not available</h1>
          <MissingScopeNotice access={access} readWhat="read the lab’s runs" />
        </>
      )}
      {failure !== undefined && (
        <>
          <h1>Run not available</h1>
          <ApiProblem error={failure} />
        </>
      )}
      {run !== undefined && (
        <>
          <h1>{run.name}</h1>
          <p className="muted">
            Run <span className="mono">{run.id}</span> by{' '}
            <PrincipalLabel id={run.actorPrincipalId} name={run.actorName} />,{' '}
            <time dateTime={run.createdAt}>{formatDateTime(run.createdAt)}</time>,{' '}
            {formatDuration(run.durationMs)}, {run.strict ? 'strict' : 'not strict'}. Reading another person’s
            run is recorded in the audit log.
          </p>
          <section className="card" aria-labelledby="run-inputs-heading">
            <h2 id="run-inputs-heading">Schema and prompt</h2>
            <h3>Prompt</h3>
            <pre className="block" tabIndex={0}>
              {run.prompt}
            </pre>
            {run.systemPrompt !== null && (
              <>
                <h3>System prompt</h3>
                <pre className="block" tabIndex={0}>
                  {run.systemPrompt}
                </pre>
              </>
            )}
            <details>
              <summary>The JSON Schema as written</summary>
              <pre className="block" tabIndex={0}>
                {JSON.stringify(run.schema, null, 2)}
              </pre>
            </details>
          </section>
          {saveAsCase?.(run)}
          <div className="results-grid">
            {run.results.map((result, index) => (
              <TargetResultPanel key={index} result={result} />
            ))}
          </div>
        </>
      )}
    </ConsoleShell>
  );
}
