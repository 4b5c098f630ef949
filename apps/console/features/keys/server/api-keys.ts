import {
  apiKeyJsonSchema,
  createdApiKeyJsonSchema,
  pageJsonSchema,
  type ApiKeyJson,
  type CreatedApiKeyJson,
  type PageJson,
} from '@agentdesk/api-contract';
import { getFromApi, sendToApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';
import type { KeyListFilters } from '../key-list-query';

export const KEYS_PAGE_SIZE = 25;

const keysPageSchema = pageJsonSchema(apiKeyJsonSchema);

/** One page of keys in the URL's order, newest first by default (revoked ones too when asked). */
export function listApiKeys(
  credential: ApiCredential,
  filters: KeyListFilters,
): Promise<PageJson<ApiKeyJson>> {
  return getFromApi(
    credential,
    '/v1/admin/api-keys',
    {
      ...pageQuery(filters.cursor, KEYS_PAGE_SIZE),
      includeRevoked: filters.includeRevoked ? 'true' : undefined,
      sort: filters.sort,
      dir: filters.dir,
      reason: 'console: keys page',
    },
    keysPageSchema,
  );
}

/** Creates a key; the answer holds the full key, the only time anyone sees it. */
export function createApiKey(
  credential: ApiCredential,
  body: Record<string, unknown>,
): Promise<CreatedApiKeyJson> {
  return sendToApi(credential, { method: 'POST', path: '/v1/admin/api-keys', body }, createdApiKeyJsonSchema);
}

/** Revokes a key: it stops working on its next request. */
export function revokeApiKey(credential: ApiCredential, keyId: string): Promise<ApiKeyJson> {
  return sendToApi(
    credential,
    { method: 'DELETE', path: `/v1/admin/api-keys/${encodeURIComponent(keyId)}` },
    apiKeyJsonSchema,
  );
}
