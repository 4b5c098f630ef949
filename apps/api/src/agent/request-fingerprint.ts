import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys in sorted order (arrays keep theirs), so two spellings of one
 * request that differ only in key order give the same text. Like `JSON.stringify`, undefined
 * object fields are left out.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a `__proto__` key is kept as data, not a prototype.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** What makes two requests "the same" for an `Idempotency-Key` (as Stripe compares parameters). */
export interface FingerprintedRequest {
  /** Method and route template, e.g. `POST /v1/sessions/:id/messages`. */
  readonly route: string;
  /** Path parameters (the session id). */
  readonly parameters: Readonly<Record<string, string>>;
  /** How the answer was asked for; a streamed and a JSON request are different requests. */
  readonly stream: boolean;
  /** The validated body. */
  readonly body: unknown;
}

/** SHA-256 (hex) of the canonical request; stored with the idempotency key and compared on reuse. */
export function requestFingerprint(request: FingerprintedRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
