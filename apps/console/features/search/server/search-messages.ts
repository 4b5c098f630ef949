import { messageSearchPageJsonSchema, type MessageSearchPageJson } from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { toSearchApiQuery, type SearchFilters } from '../search-links';

export const SEARCH_PAGE_SIZE = 25;

/** One page of messages containing every word of `filters.q`, narrowed by the filters, newest first (the API audits it). */
export function searchMessages(
  credential: ApiCredential,
  filters: SearchFilters & { q: string },
): Promise<MessageSearchPageJson> {
  return getFromApi(
    credential,
    '/v1/admin/search/messages',
    { ...toSearchApiQuery(filters, SEARCH_PAGE_SIZE), reason: 'console: message search' },
    messageSearchPageJsonSchema,
  );
}
