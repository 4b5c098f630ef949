import { readSingleHeader } from '../http/raw-headers';

/** What a request presents: nothing, something unusable, more than one credential, or one key string. */
export type PresentedCredential =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'key'; readonly key: string };

/** The headers that can carry a credential (lowercase). */
export const credentialHeaders = ['authorization', 'x-api-key'] as const;

const bearer = /^Bearer[ ]+(\S+)[ ]*$/i;

/**
 * Reads the key from exactly one `Authorization: Bearer <key>` or one `X-API-Key: <key>` header.
 *
 * Reads the raw header list (`IncomingMessage.rawHeaders`), not Node's parsed headers: Node keeps
 * only the first of two `Authorization` headers and comma-joins two `X-API-Key`s, so a request
 * with a user key and an admin key would be judged by whichever came first. A request presenting
 * more than one credential — two headers, both header kinds (even with the same key) or a
 * comma-joined value — is `ambiguous` and refused: the server never picks one for the client.
 * Any other `Authorization` scheme is malformed (never ignored, so a client that thinks it
 * authenticated does not silently fall back to dev mode).
 */
export function readCredential(rawHeaders: readonly string[]): PresentedCredential {
  const headers = credentialHeaders.map((name) => ({ name, header: readSingleHeader(rawHeaders, name) }));
  if (headers.some(({ header }) => header.kind === 'repeated')) return { kind: 'ambiguous' };
  const presented = headers.flatMap(({ name, header }) =>
    header.kind === 'once' ? [{ name, value: header.value }] : [],
  );
  if (presented.length === 0) return { kind: 'none' };
  if (presented.length > 1) return { kind: 'ambiguous' };
  const { name, value } = presented[0]!;
  // API keys never contain a comma; a comma means a list of credentials (e.g. joined by a proxy).
  if (value.includes(',')) return { kind: 'ambiguous' };
  if (name === 'authorization') {
    const match = bearer.exec(value);
    return match === null ? { kind: 'malformed' } : { kind: 'key', key: match[1]! };
  }
  const key = value.trim();
  return key.length === 0 ? { kind: 'malformed' } : { kind: 'key', key };
}
