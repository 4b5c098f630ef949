import type { PageJson, SuiteJson, SuiteRunSummaryJson, SuiteVersionJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { PrincipalLabel } from '../../people';
import { ApiProblem, ConsoleShell, MissingScopeNotice, notFoundWhenApiSaysSo } from '../../shell';
import { formatDateTime } from '../../transcript';
import { PagerNav, pagedListQuery, patternField, type PagerLinks, type SearchParams } from '../../url-state';
import { listSuiteRuns, readSuite, readSuiteVersion } from '../server/read-suites';
import { suiteYamlText } from '../server/suite-text';
import { ImportSuiteForm } from './import-suite-form';
import { StartRunForm } from './start-run-form';
import { SuiteDefinitionSummary } from './suite-definition';
import { SuiteEditor } from './suite-editor';
import { SuiteRuns } from './suite-runs';

/** A suite's URL: the version read (`?version=N`, the latest when absent) and the page of its runs. */
function suitePageQuery(suiteId: string) {
  return pagedListQuery(`/suites/${encodeURIComponent(suiteId)}`, {
    version: patternField(/^[1-9]\d{0,8}$/),
  });
}

/** The runs' pager lands on the runs, not on the top of the page (the definition and editor). */
function atRuns(links: PagerLinks): PagerLinks {
  return {
    ...(links.first === undefined ? {} : { first: `${links.first}#runs-heading` }),
    ...(links.next === undefined ? {} : { next: `${links.next}#runs-heading` }),
  };
}

function ExportLinks({ suiteId, version }: { suiteId: string; version: number }) {
  const base = `/suites/${encodeURIComponent(suiteId)}/export?version=${version}`;
  return (
    <p className="export-links">
      Export v{version}: <a href={`${base}&format=yaml`}>YAML</a> · <a href={`${base}&format=json`}>JSON</a>
    </p>
  );
}

function Versions({ suite, shown }: { suite: SuiteJson; shown: number }) {
  return (
    <ol className="versions" aria-label="Versions, newest first" reversed>
      {suite.versions.map((version) => (
        <li key={version.version}>
          <a
            href={`/suites/${encodeURIComponent(suite.id)}${version.version === suite.latestVersion ? '' : `?version=${version.version}`}`}
            aria-current={version.version === shown ? 'page' : undefined}
          >
            v{version.version}
          </a>{' '}
          by{' '}
          <PrincipalLabel
            id={version.createdBy}
            name={version.createdBy === suite.createdBy ? suite.createdByName : undefined}
          />{' '}
          at <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
          {version.note !== null && <span className="muted"> — {version.note}</span>}
        </li>
      ))}
    </ol>
  );
}

/**
 * One suite: its definition (the latest version, or an older one read-only), its versions, the
 * editor that saves the next version, export links, a run button, and its runs.
 */
export async function SuitePage({
  access,
  suiteId,
  searchParams,
}: {
  access: PageAccess;
  suiteId: string;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const pageQuery = suitePageQuery(suiteId);
  const { filters } = pageQuery.parse(searchParams);
  const asked = filters.version === undefined ? undefined : Number(filters.version);
  let suite: SuiteJson | undefined;
  let shown: SuiteVersionJson | undefined;
  let runs: PageJson<SuiteRunSummaryJson> | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      [suite, runs] = await Promise.all([
        readSuite(signedIn.credential, suiteId),
        listSuiteRuns(signedIn.credential, suiteId, filters.cursor),
      ]);
      shown =
        asked === undefined || asked === suite.latestVersion
          ? suite.current
          : await readSuiteVersion(signedIn.credential, suiteId, asked);
    } catch (error) {
      notFoundWhenApiSaysSo(error);
      failure = error;
    }
  }
  const isLatest = suite !== undefined && shown?.version === suite.latestVersion;
  return (
    <ConsoleShell signedIn={signedIn} current="/suites">
      <p>
        <a href="/suites">← QA suites</a>
      </p>
      {(suite === undefined || shown === undefined) && (
        <>
          <h1>Suite not available</h1>
          {!mayRead && <MissingScopeNotice access={access} readWhat="read QA suites" />}
          {failure !== undefined && <ApiProblem error={failure} />}
        </>
      )}
      {suite !== undefined && shown !== undefined && (
        <>
          <h1>{shown.definition.name}</h1>
          <p className="muted">
            v{shown.version} by <PrincipalLabel id={shown.createdBy} name={shown.createdByName} />,{' '}
            <time dateTime={shown.createdAt}>{formatDateTime(shown.createdAt)}</time>
            {shown.note !== null && <> — {shown.note}</>}
          </p>
          {!isLatest && (
            <p className="notice" role="note">
              You are reading v{shown.version}, an earlier version (read-only). The latest is{' '}
              <a href={`/suites/${encodeURIComponent(suite.id)}`}>v{suite.latestVersion}</a>.
            </p>
          )}
          {shown.definition.description !== undefined && <p>{shown.definition.description}</p>}
          {isLatest && can(signedIn.principal, 'suites:run') && (
            <StartRunForm
              suiteId={suite.id}
              cells={shown.definition.cases.length * shown.definition.targets.length}
            />
          )}
          <ExportLinks suiteId={suite.id} version={shown.version} />
          <section aria-labelledby="definition-heading" className="card">
            <h2 id="definition-heading">Definition</h2>
            <SuiteDefinitionSummary definition={shown.definition} />
          </section>
          {isLatest && can(signedIn.principal, 'suites:write') && (
            <section aria-labelledby="edit-heading" className="card">
              <h2 id="edit-heading">Edit</h2>
              <p className="muted">
                Saving makes v{suite.latestVersion + 1}; runs keep pointing at the version they ran.
              </p>
              <SuiteEditor
                // A new version (an import below, a save elsewhere and a refresh) starts the editor
                // over from its text: never an older text saved on top of it.
                key={suite.latestVersion}
                mode={{ kind: 'edit', suiteId: suite.id, baseVersion: suite.latestVersion }}
                initialText={suiteYamlText(shown.definition)}
              />
              <details>
                <summary>Or import a file as v{suite.latestVersion + 1}</summary>
                <ImportSuiteForm
                  target={{ kind: 'version', suiteId: suite.id, baseVersion: suite.latestVersion }}
                />
              </details>
            </section>
          )}
          <section aria-labelledby="versions-heading">
            <h2 id="versions-heading">Versions</h2>
            <Versions suite={suite} shown={shown.version} />
          </section>
          <section aria-labelledby="runs-heading">
            <h2 id="runs-heading">Runs</h2>
            {runs !== undefined && (
              <>
                <SuiteRuns runs={runs.items} latestRunId={suite.lastRun?.id} />
                <PagerNav
                  label="Pages of runs"
                  links={atRuns(pageQuery.pagerLinks(filters, runs.nextCursor))}
                  firstText="Newest runs"
                  nextText="Older runs"
                />
              </>
            )}
          </section>
        </>
      )}
    </ConsoleShell>
  );
}
