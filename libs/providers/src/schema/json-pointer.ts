/** JSON pointer helpers (RFC 6901). Pointers here always address the caller's original schema. */

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `appendPointer('/properties', 'a/b', 0)` → `/properties/a~1b/0`. */
export function appendPointer(base: string, ...tokens: ReadonlyArray<string | number>): string {
  return tokens.reduce<string>((pointer, token) => `${pointer}/${escapePointerToken(String(token))}`, base);
}

/** True when `ancestor` is `pointer` itself or one of its parents. */
export function isSameOrAncestorPointer(ancestor: string, pointer: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}
