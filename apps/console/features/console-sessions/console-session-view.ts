import {
  flagField,
  inParam,
  pagedListQuery,
  patternField,
  type FiltersOf,
  type SearchParams,
} from '../url-state';

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * What the sign-ins page shows, as its URL holds it: one person's sign-ins or everyone's, ended ones
 * too or not, a page. A malformed user id is dropped (the page shows everyone's).
 */
export const consoleSessionListQuery = pagedListQuery('/console-sessions', {
  userId: inParam('user', patternField(idPattern)),
  includeEnded: inParam('ended', flagField('include')),
});

export type ConsoleSessionView = FiltersOf<typeof consoleSessionListQuery.fields>;

/** The view from the URL; a malformed user id or cursor is dropped (the page shows everyone's first page). */
export function parseConsoleSessionView(params: SearchParams): ConsoleSessionView {
  return consoleSessionListQuery.parse(params).filters;
}

/** The page's URL for a view (changes applied; a change of filter starts from the first page). */
export function consoleSessionsHref(
  view: ConsoleSessionView,
  changes: Partial<ConsoleSessionView> = {},
): string {
  return consoleSessionListQuery.href(view, changes);
}

/** What an action did, as a code in the URL after it (banners come from codes, never from URL text). */
export const consoleSessionOutcomes = {
  'ended-one': 'Ended the sign-in: its next request is refused.',
  'ended-all': 'Signed the person out everywhere: every open sign-in of theirs is refused from now on.',
  'not-found': 'That sign-in or person does not exist.',
  forbidden: 'Your role may not end sign-ins.',
  'api-unavailable': 'The API cannot be reached right now; nothing was ended.',
  invalid: 'Choose a sign-in or a person to sign out.',
} as const;

export type ConsoleSessionOutcome = keyof typeof consoleSessionOutcomes;

/** The banner of an outcome code, with whether it is good news; undefined for any other text. */
export function outcomeBanner(code: string | undefined): { message: string; ok: boolean } | undefined {
  if (code === undefined || !Object.hasOwn(consoleSessionOutcomes, code)) return undefined;
  return {
    message: consoleSessionOutcomes[code as ConsoleSessionOutcome],
    ok: code === 'ended-one' || code === 'ended-all',
  };
}

const endReasonWords = {
  'sign-out': 'signed out',
  'key-revoked': 'key revoked',
  'ended-by-admin': 'ended by an admin',
  'signed-out-everywhere': 'signed out everywhere',
  'role-changed': 'role changed',
} as const;

/** A session's state in words: open, ended (and why), or timed out. */
export function describeState(session: {
  status: 'open' | 'ended' | 'expired';
  endReason: keyof typeof endReasonWords | null;
}): string {
  if (session.status === 'open') return 'open';
  if (session.status === 'expired') return 'timed out';
  return session.endReason === null ? 'ended' : `ended: ${endReasonWords[session.endReason]}`;
}

const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/Edg\/(\d+)/, 'Edge'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|Chromium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* Safari\//, 'Safari'],
];
const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/**
 * A user agent in a few words ("Chrome 156 on Linux") for the table; the whole string stays in the
 * cell's title. Anything unrecognised is shortened, never guessed at.
 */
export function browserSummary(userAgent: string): string {
  const browser = browsers.find(([pattern]) => pattern.test(userAgent));
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined) return userAgent.length > 40 ? `${userAgent.slice(0, 39)}…` : userAgent;
  const version = browser[0].exec(userAgent)?.[1];
  return `${browser[1]} ${version ?? ''}`.trim() + (system === undefined ? '' : ` on ${system}`);
}
