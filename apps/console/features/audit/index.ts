export { AuditPage } from './components/audit-page';
export {
  auditHref,
  auditListQuery,
  auditSorting,
  parseAuditFilters,
  toAuditQuery,
  type AuditFilters,
} from './audit-filters';
