import { pageJsonSchema, userJsonSchema } from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';

/** Ids one lookup may carry (`GET /v1/admin/users?ids=…` takes up to 100). */
const IDS_PER_LOOKUP = 100;

const usersPageSchema = pageJsonSchema(userJsonSchema);

/** The API's id layout: anything else in a report (none expected) is not looked up, so one odd key cannot fail the lookup of the rest. */
const idLayout = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Display names for the user ids of a usage report grouped by user, looked up by id through
 * `GET /v1/admin/users?ids=…` (its display name, else its external id), 100 ids per request.
 * Names are a courtesy: a refusal or an unreachable API leaves the ids as they are rather than
 * failing the page.
 */
export async function userNamesFor(
  credential: ApiCredential,
  userIds: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  const wanted = [...new Set(userIds)].filter((id) => idLayout.test(id));
  const names = new Map<string, string>();
  try {
    for (let start = 0; start < wanted.length; start += IDS_PER_LOOKUP) {
      const ids = wanted.slice(start, start + IDS_PER_LOOKUP);
      const users = await getFromApi(
        credential,
        '/v1/admin/users',
        { ids: ids.join(','), limit: String(IDS_PER_LOOKUP), reason: 'console: usage page (user names)' },
        usersPageSchema,
      );
      for (const user of users.items) names.set(user.id, user.displayName ?? user.externalId);
    }
  } catch {
    // The ids stay: a page of usage is still right without names.
  }
  return names;
}
