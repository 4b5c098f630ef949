import { identityJsonSchema } from '@agentdesk/api-contract';
import { getIronSession } from 'iron-session';
import { getFromApi } from '../../api-client';
import { DEFAULT_RETURN_PATH, safeReturnPath, signInHref } from '../return-path';
import { consoleIdentityOf } from './console-identity';
import {
  browserOf,
  cookieLifetimeSeconds,
  endConsoleSession,
  openConsoleSession,
  signInFailureOf,
} from './console-sessions-api';
import { crossSiteRefusal } from './route-caller';
import { consoleSessionOptions, type ConsoleSessionData } from './session-cookie';
import type { SignInErrorCode } from './sign-in-errors';

/** A 303 to a path of this console (relative, so no Host header decides where the browser goes). */
function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store' } });
}

function backToSignIn(error: SignInErrorCode, returnPath: string | undefined): Response {
  return seeOther(signInHref(returnPath, error));
}

/** The longest key the form takes: real keys are 81 characters; anything far longer is not one. */
const MAX_KEY_LENGTH = 512;

/**
 * `POST /auth/sign-in` (form fields `apiKey`, optional `next`): asks the API who the key is
 * (`GET /v1/me`); when it belongs to an admin or a viewer, opens a console session on the API with
 * it and forgets the key — the sealed HttpOnly cookie holds only the session's token, which sign-out,
 * the key's revocation or an admin ends on the API — then goes to `next` when it is a path of this
 * console (checked again here: it is form input), else to the sessions.
 */
export async function handleSignIn(request: Request): Promise<Response> {
  const crossSite = crossSiteRefusal(request);
  if (crossSite !== null) return crossSite;
  const form = await request.formData().catch(() => null);
  const field = form?.get('apiKey');
  const apiKey = typeof field === 'string' ? field.trim() : '';
  const nextField = form?.get('next');
  const returnPath = safeReturnPath(typeof nextField === 'string' ? nextField : undefined);
  if (apiKey === '' || apiKey.length > MAX_KEY_LENGTH) return backToSignIn('missing-key', returnPath);

  let me;
  try {
    me = await getFromApi({ apiKey }, '/v1/me', {}, identityJsonSchema);
  } catch (error) {
    return backToSignIn(signInFailureOf(error), returnPath);
  }
  const checked = consoleIdentityOf(me);
  if (!checked.ok) return backToSignIn('not-a-console-role', returnPath);
  let opened;
  try {
    opened = await openConsoleSession(apiKey, browserOf(request.headers));
  } catch (error) {
    return backToSignIn(signInFailureOf(error), returnPath);
  }

  const response = seeOther(returnPath ?? DEFAULT_RETURN_PATH);
  const session = await getIronSession<ConsoleSessionData>(
    request,
    response,
    consoleSessionOptions(cookieLifetimeSeconds(opened.session.absoluteExpiresAt, Date.now())),
  );
  session.consoleSessionToken = opened.token;
  session.identity = checked.identity;
  await session.save();
  return response;
}

/**
 * `POST /auth/sign-out`: ends the console session on the API — so a copy of the cookie opens
 * nothing any more — clears the cookie and goes back to the sign-in page (saying so when the API
 * could not end the session: it then ends at its idle timeout).
 */
export async function handleSignOut(request: Request): Promise<Response> {
  const crossSite = crossSiteRefusal(request);
  if (crossSite !== null) return crossSite;
  const probe = await getIronSession<ConsoleSessionData>(request, new Response(), consoleSessionOptions());
  const token = probe.consoleSessionToken;
  const outcome = token === undefined ? 'ended' : await endConsoleSession(token);
  const response = seeOther(outcome === 'ended' ? '/sign-in' : '/sign-in?error=sign-out-incomplete');
  const session = await getIronSession<ConsoleSessionData>(request, response, consoleSessionOptions());
  session.destroy();
  return response;
}
