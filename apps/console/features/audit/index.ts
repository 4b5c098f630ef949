export { AuditPage } from './components/audit-page';
export { auditHref, parseAuditFilters, toAuditQuery, type AuditFilters } from './audit-filters';
