import {
  createdConsoleSessionJsonSchema,
  identityJsonSchema,
  ssoProblemCodes,
  ssoSignInOptionsJsonSchema,
  type SsoSignInOptionsJson,
} from '@agentdesk/api-contract';
import { randomBytes } from 'node:crypto';
import { getIronSession } from 'iron-session';
import { ApiRequestError, getFromApi, sendToApi } from '../../api-client';
import { consoleConfig } from '../../config/server/console-config';
import { DEFAULT_RETURN_PATH, safeReturnPath } from '../return-path';
import { consoleIdentityOf } from './console-identity';
import { browserOf, cookieLifetimeSeconds } from './console-sessions-api';
import { consoleSessionOptions, type ConsoleSessionData } from './session-cookie';
import type { SignInErrorCode } from './sign-in-errors';

/**
 * Marks "a single sign-on started in this browser" for ten minutes. The way back from the API
 * (`/sign-in/sso?code=…`) is a cross-site GET anyone can link to; without this mark, a page could
 * sign a visitor into the attacker's account with the attacker's code (login CSRF).
 */
const SSO_PENDING_COOKIE = 'agentdesk_sso_pending';

/** How the sign-in page offers signing in; key sign-in alone when the API cannot say. */
export async function ssoSignInOptions(): Promise<SsoSignInOptionsJson> {
  try {
    return await getFromApi({ publicRoute: true }, '/v1/sso', {}, ssoSignInOptionsJsonSchema);
  } catch {
    return { sso: null, keySignIn: true };
  }
}

function seeOther(location: string, cookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (cookie !== undefined) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

function pendingCookie(value: string | undefined): string {
  const attributes = [
    `${SSO_PENDING_COOKIE}=${value ?? ''}`,
    'Path=/sign-in/sso',
    'HttpOnly',
    // Lax: it must come along on the top-level redirect back from the API's origin.
    'SameSite=Lax',
    `Max-Age=${value === undefined ? 0 : 600}`,
  ];
  if (consoleConfig().secureCookie) attributes.push('Secure');
  return attributes.join('; ');
}

/**
 * `GET /auth/sso/start[?next=/page]`: marks this browser (with the page to return to, if one of
 * this console's) and sends it to the API, which sends it to the provider.
 */
export async function handleSsoStart(request: Request): Promise<Response> {
  const options = await ssoSignInOptions();
  if (options.sso === null) return seeOther('/sign-in?error=sso-sso-off');
  const returnPath = safeReturnPath(new URL(request.url).searchParams.get('next') ?? undefined);
  const mark = randomBytes(16).toString('base64url');
  return seeOther(
    options.sso.startUrl,
    pendingCookie(returnPath === undefined ? mark : `${mark}.${encodeURIComponent(returnPath)}`),
  );
}

/** The pending mark's value, if this browser started a sign-in. */
function pendingMark(request: Request): string | undefined {
  for (const part of request.headers.get('cookie')?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === SSO_PENDING_COOKIE) return value.join('=');
  }
  return undefined;
}

/** The page the sign-in was started from, checked again (the cookie is this browser's to edit). */
function returnPathOf(mark: string): string {
  const separator = mark.indexOf('.');
  if (separator < 0) return DEFAULT_RETURN_PATH;
  let path: string | undefined;
  try {
    path = decodeURIComponent(mark.slice(separator + 1));
  } catch {
    return DEFAULT_RETURN_PATH;
  }
  return safeReturnPath(path) ?? DEFAULT_RETURN_PATH;
}

/**
 * `GET /sign-in/sso?code=…` (or `?problem=…`): where the API sends the browser at the end. A
 * problem becomes the sign-in page's message by its code; a code is traded server to server for a
 * console session, sealed into the cookie as a key sign-in's is.
 */
export async function handleSsoReturn(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const problem = url.searchParams.get('problem');
  if (problem !== null) return backToSignIn(problemCode(problem));
  const code = url.searchParams.get('code');
  const mark = pendingMark(request);
  if (code === null || mark === undefined || mark === '') return backToSignIn('sso-state-mismatch');

  let token: string;
  let absoluteExpiresAt: string;
  let identity;
  try {
    const opened = await sendToApi(
      { publicRoute: true },
      { method: 'POST', path: '/v1/sso/exchange', body: { code, ...browserOf(request.headers) } },
      createdConsoleSessionJsonSchema,
    );
    token = opened.token;
    absoluteExpiresAt = opened.session.absoluteExpiresAt;
    identity = consoleIdentityOf(
      await getFromApi({ consoleSession: token }, '/v1/me', {}, identityJsonSchema),
    );
  } catch (error) {
    const refused = error instanceof ApiRequestError && (error.status === 401 || error.status === 400);
    return backToSignIn(refused ? 'sso-code-invalid' : 'api-unavailable');
  }
  if (!identity.ok) return backToSignIn('not-a-console-role');

  const response = seeOther(returnPathOf(mark), pendingCookie(undefined));
  const session = await getIronSession<ConsoleSessionData>(
    request,
    response,
    consoleSessionOptions(cookieLifetimeSeconds(absoluteExpiresAt, Date.now())),
  );
  session.consoleSessionToken = token;
  session.identity = identity.identity;
  await session.save();
  return response;
}

function backToSignIn(error: SignInErrorCode): Response {
  return seeOther(`/sign-in?error=${error}`, pendingCookie(undefined));
}

/** The page's code for an API problem code; an unknown one (a hand-written URL) is the generic failure. */
function problemCode(problem: string): SignInErrorCode {
  return (ssoProblemCodes as readonly string[]).includes(problem)
    ? (`sso-${problem}` as SignInErrorCode)
    : 'sso-sign-in-failed';
}
