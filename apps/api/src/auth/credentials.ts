import type { IncomingHttpHeaders } from 'node:http';

/** What a request presents: nothing, something unusable, or one key string. */
export type PresentedCredential =
  { readonly kind: 'none' } | { readonly kind: 'malformed' } | { readonly kind: 'key'; readonly key: string };

const bearer = /^Bearer[ ]+(\S+)[ ]*$/i;

/**
 * Reads the key from `Authorization: Bearer <key>` or `X-API-Key: <key>`. Both may be sent only
 * if they carry the same key; any other `Authorization` scheme is malformed (never ignored, so a
 * client that thinks it authenticated does not silently fall back to dev mode).
 */
export function readCredential(headers: IncomingHttpHeaders): PresentedCredential {
  const authorization = singleHeader(headers['authorization']);
  const apiKeyHeader = singleHeader(headers['x-api-key']);
  if (authorization === null || apiKeyHeader === null) return { kind: 'malformed' };

  let fromAuthorization: string | undefined;
  if (authorization !== undefined) {
    const match = bearer.exec(authorization);
    if (match === null) return { kind: 'malformed' };
    fromAuthorization = match[1];
  }
  const fromApiKeyHeader = apiKeyHeader?.trim();
  if (
    fromAuthorization !== undefined &&
    fromApiKeyHeader !== undefined &&
    fromAuthorization !== fromApiKeyHeader
  )
    return { kind: 'malformed' };
  const key = fromAuthorization ?? fromApiKeyHeader;
  if (key === undefined) return { kind: 'none' };
  return key.length === 0 ? { kind: 'malformed' } : { kind: 'key', key };
}

/** `undefined` when absent, `null` when repeated (ambiguous), the value otherwise. */
function singleHeader(value: string | string[] | undefined): string | undefined | null {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 1 ? value[0] : null;
  return value;
}
