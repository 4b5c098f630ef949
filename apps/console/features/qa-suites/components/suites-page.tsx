import type { PageJson, SuiteSummaryJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, type SearchParams } from '../../url-state';
import { exampleSuiteText } from '../example-suite';
import { listSuites } from '../server/read-suites';
import { suiteListQuery } from '../suite-list-query';
import { ImportSuiteForm } from './import-suite-form';
import { SuiteEditor } from './suite-editor';
import { SuiteList } from './suite-list';

/** QA suites: the list (`suites:read`), and for those who may write them a new suite and an import. */
export async function SuitesPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const mayWrite = can(signedIn.principal, 'suites:write');
  const { filters } = suiteListQuery.parse(searchParams);
  let suites: PageJson<SuiteSummaryJson> | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      suites = await listSuites(signedIn.credential, filters.cursor);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/suites">
      <h1>QA suites</h1>
      <p className="muted">
        Saved structured-output cases run on any number of models: pass rates per model and assertion, and
        what got worse since an earlier run.
      </p>
      {mayWrite && (
        <div className="suite-actions">
          <details className="card">
            <summary>New suite</summary>
            <SuiteEditor mode={{ kind: 'create' }} initialText={exampleSuiteText} />
          </details>
          <details className="card">
            <summary>Import</summary>
            <ImportSuiteForm />
          </details>
        </div>
      )}
      <section aria-labelledby="suites-heading">
        <h2 id="suites-heading">Suites</h2>
        {!mayRead && <MissingScopeNotice access={access} readWhat="read QA suites" />}
        {failure !== undefined && <ApiProblem error={failure} />}
        {suites !== undefined && (
          <>
            <SuiteList suites={suites.items} />
            <PagerNav
              label="Pages of suites"
              links={suiteListQuery.pagerLinks(filters, suites.nextCursor)}
              firstText="Newest suites"
              nextText="Older suites"
            />
          </>
        )}
      </section>
    </ConsoleShell>
  );
}
