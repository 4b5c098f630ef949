import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { PagerNav, type SearchParams } from '../../url-state';
import { ExportLinks } from '../../exports';
import { auditHref, auditListQuery, parseAuditFilters } from '../audit-filters';
import { listAudit, type AuditPage as AuditPageJson } from '../server/list-audit';
import { AuditFilterForm } from './audit-filter-form';
import { AuditTable } from './audit-table';

/** The audit log, newest first, one keyset page at a time; the filters live in the URL. */
export async function AuditPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { filters, problems } = parseAuditFilters(searchParams);
  let page: AuditPageJson | undefined;
  let failure: unknown;
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
      {!mayRead && <MissingScopeNotice access={access} readWhat="read the audit log" />}
      {mayRead && <AuditFilterForm filters={filters} />}
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
          <ExportLinks list="audit" query={auditHref(filters, { cursor: undefined }).split('?')[1] ?? ''} />
          <AuditTable entries={page.items} filters={filters} />
          <PagerNav
            label="Pages of the audit log"
            links={auditListQuery.pagerLinks(filters, page.nextCursor)}
            nextText="Older records"
          />
        </>
      )}
    </ConsoleShell>
  );
}
