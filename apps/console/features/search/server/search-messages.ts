import {
  messageSearchHitJsonSchema,
  pageJsonSchema,
  type MessageSearchHitJson,
  type PageJson,
} from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';

export const SEARCH_PAGE_SIZE = 25;

const searchPageSchema = pageJsonSchema(messageSearchHitJsonSchema);

/** One page of messages containing every word of `query`, newest first (the API audits it). */
export function searchMessages(
  credential: ApiCredential,
  query: string,
  cursor: string | undefined,
): Promise<PageJson<MessageSearchHitJson>> {
  return getFromApi(
    credential,
    '/v1/admin/search/messages',
    { q: query, ...pageQuery(cursor, SEARCH_PAGE_SIZE), reason: 'console: message search' },
    searchPageSchema,
  );
}
