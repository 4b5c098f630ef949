export { SessionsPage } from './components/sessions-page';
export { parseSessionFilters, sessionsHref, toAdminListQuery, type SessionFilters } from './session-filters';
