import { auditEntryJsonSchema, pageJsonSchema } from '@agentdesk/api-contract';
import type { z } from 'zod';
import { getFromApi, type ApiCredential } from '../../api-client';
import { toAuditQuery, type AuditFilters } from '../audit-filters';

export const AUDIT_PAGE_SIZE = 25;

const auditPageSchema = pageJsonSchema(auditEntryJsonSchema);
export type AuditPage = z.output<typeof auditPageSchema>;
export type AuditEntry = AuditPage['items'][number];

/** One page of the audit log, newest first, through the API's keyset-paginated listing. */
export function listAudit(credential: ApiCredential, filters: AuditFilters): Promise<AuditPage> {
  return getFromApi(
    credential,
    '/v1/admin/audit',
    { ...toAuditQuery(filters, AUDIT_PAGE_SIZE), reason: 'console: audit page' },
    auditPageSchema,
  );
}
