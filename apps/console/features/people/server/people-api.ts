import {
  apiKeyJsonSchema,
  pageJsonSchema,
  personJsonSchema,
  sessionJsonSchema,
  type ApiKeyJson,
  type PageJson,
  type PersonJson,
  type SessionJson,
} from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { toPeopleQuery, type PeopleFilters } from '../people-filters';

export const PEOPLE_PAGE_SIZE = 25;

const peoplePageSchema = pageJsonSchema(personJsonSchema);

/** One page of the people directory, newest first. */
export function listPeople(
  credential: ApiCredential,
  filters: PeopleFilters,
  pageSize = PEOPLE_PAGE_SIZE,
): Promise<PageJson<PersonJson>> {
  return getFromApi(
    credential,
    '/v1/admin/users',
    { ...toPeopleQuery(filters, pageSize), reason: 'console: users page' },
    peoplePageSchema,
  );
}

/** One person's profile, with usage over the range asked. */
export function readPerson(
  credential: ApiCredential,
  userId: string,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<PersonJson> {
  return getFromApi(
    credential,
    `/v1/admin/users/${encodeURIComponent(userId)}`,
    { from: range.from, to: range.to, reason: 'console: user page' },
    personJsonSchema,
  );
}

const sessionsPageSchema = pageJsonSchema(sessionJsonSchema);

/** The person's newest sessions (the admin listing filtered by owner). */
export function listSessionsOf(credential: ApiCredential, userId: string): Promise<PageJson<SessionJson>> {
  return getFromApi(
    credential,
    '/v1/admin/sessions',
    { userId, limit: String(PEOPLE_PAGE_SIZE), reason: 'console: user page' },
    sessionsPageSchema,
  );
}

const keysPageSchema = pageJsonSchema(apiKeyJsonSchema);

/** The keys the person holds, revoked ones too, newest first (the keys listing filtered by owner). */
export function listKeysOf(credential: ApiCredential, userId: string): Promise<PageJson<ApiKeyJson>> {
  return getFromApi(
    credential,
    '/v1/admin/api-keys',
    {
      ownerUserId: userId,
      includeRevoked: 'true',
      limit: String(PEOPLE_PAGE_SIZE),
      reason: 'console: user page',
    },
    keysPageSchema,
  );
}
