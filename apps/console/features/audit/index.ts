export { AuditPage } from './components/audit-page';
export {
  auditHref,
  auditListQuery,
  parseAuditFilters,
  toAuditQuery,
  type AuditFilters,
} from './audit-filters';
