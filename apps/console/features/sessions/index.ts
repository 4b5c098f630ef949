export { SessionsPage } from './components/sessions-page';
export {
  parseSessionFilters,
  sessionsHref,
  toAdminListQuery,
  type SearchParams,
  type SessionFilters,
} from './session-filters';
