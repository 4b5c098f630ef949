/** An RFC 6901 pointer's unescaped tokens: "" → [], "/a~1b/0" → ["a/b", "0"]. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Escapes one token for a pointer ("a/b" → "a~1b"). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * Follows an RFC 6901 JSON pointer into a parsed JSON value: "" is the whole value. Only own
 * members count (never `constructor` or `__proto__` of the prototype); array indexes are decimal
 * without leading zeros, and "-" (one past the end) resolves to nothing.
 */
export function resolvePointer(
  value: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false } {
  if (pointer !== '' && !pointer.startsWith('/')) return { found: false };
  let current: unknown = value;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return { found: false };
      const index = Number(token);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return { found: false };
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
