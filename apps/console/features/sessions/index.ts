export { SessionsPage } from './components/sessions-page';
export {
  parseSessionFilters,
  sessionListQuery,
  sessionsHref,
  toAdminListQuery,
  type SessionFilters,
} from './session-filters';
