/** The value a JSON pointer (`/items/2/price`) names inside a JSON value; `found: false` when there is none. */
export function valueAtPointer(
  root: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false } {
  if (pointer === '') return { found: true, value: root };
  if (!pointer.startsWith('/')) return { found: false };
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: current };
}

/** A pointer as people read it: `/items/2/price` → `items › 2 › price`; the root is `(the whole answer)`. */
export function readablePointer(pointer: string): string {
  if (pointer === '') return '(the whole answer)';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join(' › ');
}
