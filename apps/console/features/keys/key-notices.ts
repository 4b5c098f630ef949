/**
 * What the keys page may announce after a revocation: a code in its URL (`?notice=…`), shown as
 * one of these fixed texts. A URL anyone can write never supplies the words (`?problem=Call this
 * number` shows nothing), and nothing read from it is echoed.
 */
export const keyNotices = {
  'key-revoked': { tone: 'status', text: 'The key was revoked: its next request is refused.' },
  'choose-key': { tone: 'alert', text: 'Choose a key to revoke.' },
  'key-not-found': { tone: 'alert', text: 'That key does not exist (any more): nothing was revoked.' },
  'revoke-refused': { tone: 'alert', text: 'The API refused to revoke that key.' },
  'api-unavailable': { tone: 'alert', text: 'The API cannot be reached right now; nothing was revoked.' },
} as const satisfies Record<string, { tone: 'status' | 'alert'; text: string }>;

export type KeyNoticeCode = keyof typeof keyNotices;

/** The notice a code names, or undefined for anything else (no code, a made-up one, free text). */
export function keyNoticeOf(code: string | undefined): (typeof keyNotices)[KeyNoticeCode] | undefined {
  if (code === undefined || !Object.hasOwn(keyNotices, code)) return undefined;
  return keyNotices[code as KeyNoticeCode];
}

/** The keys page announcing `code`. */
export function keysNoticeHref(code: KeyNoticeCode): string {
  return `/keys?notice=${code}`;
}
