import type { PageJson, SessionJson } from '@agentdesk/api-contract';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import type { SearchParams } from '../../url-state';
import { parseSessionFilters, sessionsHref } from '../session-filters';
import { listSessions } from '../server/list-sessions';
import { SessionFilterForm } from './session-filter-form';
import { SessionsTable } from './sessions-table';

/** Every user's sessions, newest first, one keyset page at a time; the filters live in the URL. */
export async function SessionsPage({ searchParams }: { searchParams: SearchParams }) {
  const signedIn = await requireSignIn();
  const { filters, problems } = parseSessionFilters(searchParams);
  let page: PageJson<SessionJson> | undefined;
  let failure: unknown;
  if (problems.length === 0) {
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
      <SessionFilterForm filters={filters} />
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
          <nav aria-label="Pages of sessions" className="pager">
            {filters.cursor !== undefined && (
              <a href={sessionsHref(filters, { cursor: undefined })}>First page</a>
            )}
            {page.nextCursor !== null && (
              <a href={sessionsHref(filters, { cursor: page.nextCursor })} rel="next">
                Older sessions
              </a>
            )}
          </nav>
        </>
      )}
    </ConsoleShell>
  );
}
