import { identityJsonSchema } from '@agentdesk/api-contract';
import { getIronSession } from 'iron-session';
import { ApiRequestError, getFromApi } from '../../api-client';
import { consoleIdentityOf } from './console-identity';
import { isSameOriginRequest } from './same-origin';
import { consoleSessionOptions, type ConsoleSessionData } from './session-cookie';
import type { SignInErrorCode } from './sign-in-errors';

/** A 303 to a path of this console (relative, so no Host header decides where the browser goes). */
function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store' } });
}

function backToSignIn(error: SignInErrorCode): Response {
  return seeOther(`/sign-in?error=${error}`);
}

/** The longest key the form takes: real keys are 81 characters; anything far longer is not one. */
const MAX_KEY_LENGTH = 512;

/**
 * `POST /auth/sign-in` (form field `apiKey`): asks the API who the key is (`GET /v1/me`), and keeps
 * the key only in the sealed HttpOnly cookie when it belongs to an admin or a viewer.
 */
export async function handleSignIn(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request.headers))
    return new Response('Cross-site request refused', { status: 403 });
  const form = await request.formData().catch(() => null);
  const field = form?.get('apiKey');
  const apiKey = typeof field === 'string' ? field.trim() : '';
  if (apiKey === '' || apiKey.length > MAX_KEY_LENGTH) return backToSignIn('missing-key');

  let me;
  try {
    me = await getFromApi(apiKey, '/v1/me', {}, identityJsonSchema);
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 400))
      return backToSignIn('invalid-key');
    if (error instanceof ApiRequestError && error.status === 403) return backToSignIn('not-a-console-role');
    return backToSignIn('api-unavailable');
  }
  const checked = consoleIdentityOf(me);
  if (!checked.ok) return backToSignIn('not-a-console-role');

  const response = seeOther('/sessions');
  const session = await getIronSession<ConsoleSessionData>(request, response, consoleSessionOptions());
  session.apiKey = apiKey;
  session.identity = checked.identity;
  await session.save();
  return response;
}

/** `POST /auth/sign-out`: forgets the key (the cookie is cleared) and goes back to the sign-in page. */
export async function handleSignOut(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request.headers))
    return new Response('Cross-site request refused', { status: 403 });
  const response = seeOther('/sign-in');
  const session = await getIronSession<ConsoleSessionData>(request, response, consoleSessionOptions());
  session.destroy();
  return response;
}
