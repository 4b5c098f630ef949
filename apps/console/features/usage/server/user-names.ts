import { pageJsonSchema, userJsonSchema } from '@agentdesk/api-contract';
import { getFromApi } from '../../api-client';

/** Users listed per page while looking for names (the API's largest page). */
const USERS_PER_PAGE = 100;
/**
 * Pages read at most: names of the first 1,000 users (newest first). The API has no lookup by ids;
 * an id not found by then is shown as the id itself.
 */
const MAX_USER_PAGES = 10;

const usersPageSchema = pageJsonSchema(userJsonSchema);

/**
 * Display names for the user ids of a usage report grouped by user, from `GET /v1/admin/users`
 * (its display name, else its external id). Names are a courtesy: a refusal or an unreachable API
 * leaves the ids as they are rather than failing the page.
 */
export async function userNamesFor(
  apiKey: string,
  userIds: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  const wanted = new Set(userIds);
  const names = new Map<string, string>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_USER_PAGES && names.size < wanted.size; page += 1) {
      const users = await getFromApi(
        apiKey,
        '/v1/admin/users',
        { limit: String(USERS_PER_PAGE), cursor, reason: 'console: usage page (user names)' },
        usersPageSchema,
      );
      for (const user of users.items)
        if (wanted.has(user.id)) names.set(user.id, user.displayName ?? user.externalId);
      if (users.nextCursor === null) break;
      cursor = users.nextCursor;
    }
  } catch {
    // The ids stay: a page of usage is still right without names.
  }
  return names;
}
