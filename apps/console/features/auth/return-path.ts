/**
 * Where the console sends someone after sign-in: the page they asked for, as a path of this console
 * only. Browser-safe and pure; the sign-in page, the sign-in handler and `requireSignIn` share it.
 */

/** Where sign-in lands when no (acceptable) page was asked for. */
export const DEFAULT_RETURN_PATH = '/sessions';

/** Set by `proxy.ts` on every request: the path and query the browser asked for (a client's value is overwritten). */
export const REQUEST_PATH_HEADER = 'x-agentdesk-request-path';

/** Longer than any page's URL here; a longer one is not worth returning to. */
const MAX_RETURN_PATH_LENGTH = 2048;

/** C0 and C1 control characters and DEL: a URL parser drops or mangles them. */
function isControlCharacter(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/**
 * As sent: no whitespace, control character or backslash at all. A URL parser drops tab and newline
 * anywhere ("/\t/evil" becomes "//evil") and reads "\" as "/"; an encoded path needs none of them.
 */
function hasUnsafeRawCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isControlCharacter(code) || code === 0x20 || code === 0x5c) return true;
  }
  return false;
}

/** Once decoded: no control character (a layer that decodes before parsing would drop it). */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1)
    if (isControlCharacter(text.charCodeAt(index))) return true;
  return false;
}

// Pages that would send the person straight back (sign-in and its handlers) or that are no page.
const refusedPaths = ['/sign-in', '/auth', '/_next'];

const probeOrigin = 'http://console.invalid';

/** The text with every percent-escape decoded, as often as it decodes; undefined when malformed. */
function fullyDecoded(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 5; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return undefined;
}

/** A path that starts on this origin: one slash, then neither a slash nor a backslash. */
function startsAsOwnPath(path: string): boolean {
  return path.startsWith('/') && path[1] !== '/' && path[1] !== '\\';
}

/**
 * `value` as a same-origin relative path and query (`/sessions/abc?x=1`), normalised by the URL
 * parser, or undefined. Refused: absolute URLs (`https://…`, `javascript:`), protocol-relative
 * `//host`, backslashes (`/\host`: browsers read `\` as `/`), whitespace and control characters,
 * any of these behind percent-encoding (`/%2F%2Fhost`, `/%5Chost`, `/%09/host`, encoded twice or
 * more), malformed escapes, and the sign-in pages themselves. The fragment is dropped.
 */
export function safeReturnPath(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_PATH_LENGTH)
    return undefined;
  if (!startsAsOwnPath(value) || hasUnsafeRawCharacter(value)) return undefined;
  const decoded = fullyDecoded(value);
  if (decoded === undefined || !startsAsOwnPath(decoded) || hasControlCharacter(decoded)) return undefined;
  let url: URL;
  try {
    url = new URL(value, probeOrigin);
  } catch {
    return undefined;
  }
  if (url.origin !== probeOrigin) return undefined;
  const pathname = fullyDecoded(url.pathname);
  if (pathname === undefined || !startsAsOwnPath(pathname)) return undefined;
  if (refusedPaths.some((refused) => pathname === refused || pathname.startsWith(`${refused}/`)))
    return undefined;
  return `${url.pathname}${url.search}`;
}

/** The sign-in page's URL, carrying `next` only when it names a page other than the default. */
export function signInHref(returnPath: string | null | undefined, error?: string): string {
  const query = new URLSearchParams();
  if (error !== undefined) query.set('error', error);
  const next = safeReturnPath(returnPath);
  if (next !== undefined && next !== DEFAULT_RETURN_PATH) query.set('next', next);
  const text = query.toString();
  return text === '' ? '/sign-in' : `/sign-in?${text}`;
}
