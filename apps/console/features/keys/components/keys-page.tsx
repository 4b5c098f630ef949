import { can } from '@agentdesk/authz';
import { apiKeyRoles, type ApiKeyJson, type PageJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, singleParam, type SearchParams } from '../../url-state';
import { keyListQuery, keySorting } from '../key-list-query';
import { keyNoticeOf } from '../key-notices';
import { listApiKeys } from '../server/api-keys';
import { CreateKeyForm } from './create-key-form';
import { KeysTable } from './keys-table';

/** API keys: create (shown once), list, revoke. Needs `api-keys:read`; the controls need `api-keys:write`. */
export async function KeysPage({ access, searchParams }: { access: PageAccess; searchParams: SearchParams }) {
  const { signedIn, mayRead } = access;
  const mayWrite = can(signedIn.principal, 'api-keys:write');
  const { filters } = keyListQuery.parse(searchParams);
  let page: PageJson<ApiKeyJson> | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      page = await listApiKeys(signedIn.credential, filters);
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
        <MissingScopeNotice access={access} readWhat="see API keys" />
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
            <a
              href={keyListQuery.href(filters, {
                includeRevoked: !filters.includeRevoked,
                cursor: undefined,
              })}
            >
              {filters.includeRevoked ? 'Hide revoked keys' : 'Show revoked keys too'}
            </a>
          </p>
          {failure !== undefined && <ApiProblem error={failure} />}
          {page !== undefined && (
            <>
              <KeysTable keys={page.items} canRevoke={mayWrite} sorting={keySorting(filters)} />
              <PagerNav
                label="Pages of keys"
                links={keyListQuery.pagerLinks(filters, page.nextCursor)}
                nextText="Older keys"
              />
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
