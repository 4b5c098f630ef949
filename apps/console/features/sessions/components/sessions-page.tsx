import type { PageJson, SessionJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, type SearchParams } from '../../url-state';
import { ExportLinks } from '../../exports';
import { parseSessionFilters, sessionListQuery, sessionSorting, sessionsHref } from '../session-filters';
import { listSessions } from '../server/list-sessions';
import { SessionFilterForm } from './session-filter-form';
import { SessionsTable } from './sessions-table';

/** Every user's sessions, newest first, one keyset page at a time; the filters live in the URL. */
export async function SessionsPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { filters, problems } = parseSessionFilters(searchParams);
  let page: PageJson<SessionJson> | undefined;
  let failure: unknown;
  if (mayRead && problems.length === 0) {
    try {
      page = await listSessions(signedIn.credential, filters);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/sessions">
      <h1>Sessions</h1>
      <p className="muted">
        Every user’s sessions, newest first unless a column header says otherwise. Listing other users’
        sessions is recorded in the audit log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="list every user’s sessions" />}
      {mayRead && <SessionFilterForm filters={filters} />}
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
      {page !== undefined && (
        <>
          <ExportLinks
            list="sessions"
            query={sessionsHref(filters, { cursor: undefined }).split('?')[1] ?? ''}
          />
          <SessionsTable sessions={page.items} sorting={sessionSorting(filters)} />
          <PagerNav
            label="Pages of sessions"
            links={sessionListQuery.pagerLinks(filters, page.nextCursor)}
            nextText="Older sessions"
          />
        </>
      )}
    </ConsoleShell>
  );
}
