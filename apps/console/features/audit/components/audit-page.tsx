import { can } from '@agentdesk/authz';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import type { SearchParams } from '../../url-state';
import { auditHref, parseAuditFilters } from '../audit-filters';
import { listAudit, type AuditPage as AuditPageJson } from '../server/list-audit';
import { AuditFilterForm } from './audit-filter-form';
import { AuditTable } from './audit-table';

/** The audit log, newest first, one keyset page at a time; the filters live in the URL. */
export async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const signedIn = await requireSignIn();
  const { filters, problems } = parseAuditFilters(searchParams);
  let page: AuditPageJson | undefined;
  let failure: unknown;
  const mayRead = can(signedIn.principal, 'audit:read');
  if (mayRead && problems.length === 0) {
    try {
      page = await listAudit(signedIn.credential, filters);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/audit">
      <h1>Audit log</h1>
      <p className="muted">
        Who changed what or read which user’s data, how they came in, when and why — and what was refused,
        failed sign-ins included. It is append-only; reading it is recorded here too.
      </p>
      {!mayRead && <p className="notice">Your role ({signedIn.identity.role}) may not read the audit log.</p>}
      {mayRead && <AuditFilterForm filters={filters} />}
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
          <AuditTable entries={page.items} filters={filters} />
          <nav aria-label="Pages of the audit log" className="pager">
            {filters.cursor !== undefined && (
              <a href={auditHref(filters, { cursor: undefined })}>First page</a>
            )}
            {page.nextCursor !== null && (
              <a href={auditHref(filters, { cursor: page.nextCursor })} rel="next">
                Older records
              </a>
            )}
          </nav>
        </>
      )}
    </ConsoleShell>
  );
}
