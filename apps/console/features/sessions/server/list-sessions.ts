import { pageJsonSchema, sessionJsonSchema, type PageJson, type SessionJson } from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { toAdminListQuery, type SessionFilters } from '../session-filters';

export const SESSIONS_PAGE_SIZE = 25;

const sessionsPageSchema = pageJsonSchema(sessionJsonSchema);

/** One page of every user's sessions, newest first, through the API's keyset-paginated admin listing. */
export function listSessions(
  credential: ApiCredential,
  filters: SessionFilters,
): Promise<PageJson<SessionJson>> {
  return getFromApi(
    credential,
    '/v1/admin/sessions',
    { ...toAdminListQuery(filters, SESSIONS_PAGE_SIZE), reason: 'console: sessions list' },
    sessionsPageSchema,
  );
}
