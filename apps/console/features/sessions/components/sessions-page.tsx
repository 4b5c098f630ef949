import type { PageJson, SessionJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, type SearchParams } from '../../url-state';
import { parseSessionFilters, sessionListQuery } from '../session-filters';
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
        Every user’s sessions, newest first. Listing other users’ sessions is recorded in the audit log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="list every user’s sessions" />}
      {mayRead && <SessionFilterForm filters={filters} />}
      {problems.length > 0 && (
        <ul role="alert" className="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {failure !== undefined && <ApiProblem error={failure} />}
      {page !== undefined && (
        <>
          <SessionsTable sessions={page.items} />
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
