import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '@agentdesk/storage';

/**
 * API keys look like `adk_<key id, 32 hex>_<secret, 43 base64url>`:
 * - the `adk_` prefix makes a leaked key recognizable (secret scanners, logs);
 * - the key id is the `api_keys.id` without dashes, so an operator can tell which key a client
 *   uses without seeing the secret (listings show `adk_<id>` as the key's visible prefix);
 * - the secret is 256 random bits. Only the SHA-256 of the whole key string is stored.
 */
export const API_KEY_PREFIX = 'adk_';

const keyPattern = /^adk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/** A key split into its parts. */
export interface ParsedApiKey {
  /** The `api_keys.id` (UUID layout, with dashes). */
  readonly keyId: string;
  /** The visible part, stored as the key's `prefix`: `adk_<32 hex>`. */
  readonly visiblePrefix: string;
}

/** A freshly generated key: the full string is shown once and never stored. */
export interface GeneratedApiKey extends ParsedApiKey {
  readonly key: string;
  readonly secretHash: string;
}

/** A human description of the format, for error messages (never includes a value). */
export const API_KEY_FORMAT_DESCRIPTION = 'adk_<32 lowercase hex>_<43 base64url characters>';

/** Parses a presented key; `undefined` when it is not in the format (no lookup needed then). */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = keyPattern.exec(key);
  if (match === null) return undefined;
  const hex = match[1]!;
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { keyId, visiblePrefix: `${API_KEY_PREFIX}${hex}` };
}

/** Creates a new key with a new id. */
export function generateApiKey(keyId: string = newId()): GeneratedApiKey {
  const hex = keyId.replaceAll('-', '');
  const key = `${API_KEY_PREFIX}${hex}_${randomBytes(32).toString('base64url')}`;
  const parsed = parseApiKey(key);
  if (parsed === undefined) throw new Error('Generated an API key outside its own format');
  return { ...parsed, key, secretHash: hashApiKey(key) };
}

/** The stored form of a key: SHA-256 of the whole key string, lowercase hex. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Compares two hex digests in constant time (different lengths compare unequal). */
export function hashesEqual(computed: string, stored: string): boolean {
  const left = Buffer.from(computed, 'utf8');
  const right = Buffer.from(stored, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
