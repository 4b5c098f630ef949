import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, singleParam, type SearchParams } from '../../url-state';
import {
  consoleSessionListQuery,
  consoleSessionsHref,
  outcomeBanner,
  parseConsoleSessionView,
} from '../console-session-view';
import { listConsoleSessions, type ConsoleSessionsPage as PageJson } from '../server/list-console-sessions';
import { ConsoleSessionsTable } from './console-sessions-table';

/**
 * Who is signed in to the console, newest first: open sign-ins (ended ones on request), one person's
 * or everyone's. Admins end one, or sign a person out everywhere; each ends at once on the API.
 */
export async function ConsoleSessionsPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const mayEnd = can(signedIn.principal, 'console-sessions:write');
  const view = parseConsoleSessionView(searchParams);
  const banner = outcomeBanner(singleParam(searchParams, 'done'));
  let page: PageJson | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      page = await listConsoleSessions(signedIn.credential, view);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/console-sessions">
      <h1>Console sign-ins</h1>
      {!mayRead ? (
        <MissingScopeNotice access={access} readWhat="see console sign-ins" />
      ) : (
        <>
          <p className="muted">
            Who is signed in to this console, from where and with which browser. Ending a sign-in refuses its
            next request, wherever its cookie was copied to. Listing them is recorded in the audit log.
          </p>
          {banner !== undefined && (
            <p role={banner.ok ? 'status' : 'alert'} className={banner.ok ? 'notice' : 'alert'}>
              {banner.message}
            </p>
          )}
          <p>
            {view.userId !== undefined && (
              <>
                <a href={consoleSessionsHref(view, { userId: undefined, cursor: undefined })}>
                  Everyone’s sign-ins
                </a>
                {' · '}
              </>
            )}
            {view.includeEnded ? (
              <a href={consoleSessionsHref(view, { includeEnded: false, cursor: undefined })}>
                Open sign-ins only
              </a>
            ) : (
              <a href={consoleSessionsHref(view, { includeEnded: true, cursor: undefined })}>
                Show ended sign-ins too
              </a>
            )}
          </p>
          {view.userId !== undefined && mayEnd && (
            <form method="post" action="/console-sessions/end-all" className="confirm-row">
              <input type="hidden" name="userId" value={view.userId} />
              <button type="submit" className="danger">
                Sign this person out everywhere
              </button>
            </form>
          )}
          {failure !== undefined && <ApiProblem error={failure} />}
          {page !== undefined && (
            <>
              <ConsoleSessionsTable sessions={page.items} view={view} canEnd={mayEnd} />
              <PagerNav
                label="Pages of sign-ins"
                links={consoleSessionListQuery.pagerLinks(view, page.nextCursor)}
                nextText="Older sign-ins"
              />
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
