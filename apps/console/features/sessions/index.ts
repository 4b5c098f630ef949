export { SessionsPage } from './components/sessions-page';
export { SessionsTable } from './components/sessions-table';
export {
  parseSessionFilters,
  sessionListQuery,
  sessionSorting,
  sessionsHref,
  toAdminListQuery,
  type SessionFilters,
} from './session-filters';
