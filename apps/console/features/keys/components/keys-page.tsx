import { can } from '@agentdesk/authz';
import { apiKeyRoles, type ApiKeyJson, type PageJson } from '@agentdesk/api-contract';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import { listApiKeys } from '../server/api-keys';
import { keyNoticeOf } from '../key-notices';
import { CreateKeyForm } from './create-key-form';
import { singleParam, type SearchParams } from '../../url-state';
import { KeysTable } from './keys-table';

function keysHref(changes: { cursor?: string; includeRevoked: boolean }): string {
  const query = new URLSearchParams();
  if (changes.includeRevoked) query.set('revoked', 'include');
  if (changes.cursor !== undefined) query.set('cursor', changes.cursor);
  const text = query.toString();
  return text === '' ? '/keys' : `/keys?${text}`;
}

/** API keys: create (shown once), list, revoke. Needs `api-keys:read`; the controls need `api-keys:write`. */
export async function KeysPage({ searchParams }: { searchParams: SearchParams }) {
  const signedIn = await requireSignIn();
  const mayRead = can(signedIn.principal, 'api-keys:read');
  const mayWrite = can(signedIn.principal, 'api-keys:write');
  const includeRevoked = singleParam(searchParams, 'revoked') === 'include';
  const cursor = singleParam(searchParams, 'cursor');
  let page: PageJson<ApiKeyJson> | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      page = await listApiKeys(signedIn.credential, {
        includeRevoked,
        ...(cursor === undefined ? {} : { cursor }),
      });
    } catch (error) {
      failure = error;
    }
  }
  // A code from the URL picks one of the page's own texts; the URL's words are never shown.
  const notice = keyNoticeOf(singleParam(searchParams, 'notice'));
  return (
    <ConsoleShell signedIn={signedIn} current="/keys">
      <h1>Keys and users</h1>
      {!mayRead ? (
        <p className="notice">Your role ({signedIn.identity.role}) may not see API keys.</p>
      ) : (
        <>
          <p className="muted">
            Keys for users, portals, viewers and admins. Listing them is recorded in the audit log.
          </p>
          {notice !== undefined && (
            <p role={notice.tone} className={notice.tone === 'alert' ? 'alert' : 'notice'}>
              {notice.text}
            </p>
          )}
          {mayWrite && <CreateKeyForm roles={apiKeyRoles} />}
          <h2>Existing keys</h2>
          <p>
            {includeRevoked ? (
              <a href={keysHref({ includeRevoked: false })}>Hide revoked keys</a>
            ) : (
              <a href={keysHref({ includeRevoked: true })}>Show revoked keys too</a>
            )}
          </p>
          {failure !== undefined && <ApiProblem error={failure} />}
          {page !== undefined && (
            <>
              <KeysTable keys={page.items} canRevoke={mayWrite} />
              <nav aria-label="Pages of keys" className="pager">
                {cursor !== undefined && <a href={keysHref({ includeRevoked })}>First page</a>}
                {page.nextCursor !== null && (
                  <a href={keysHref({ includeRevoked, cursor: page.nextCursor })} rel="next">
                    Older keys
                  </a>
                )}
              </nav>
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
