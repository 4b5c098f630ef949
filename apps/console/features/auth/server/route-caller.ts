import { ApiErrorCode } from '@agentdesk/api-contract';
import { consoleRefusal } from '../../api-client';
import { isSameOriginRequest } from './same-origin';
import { currentSignIn, type SignedIn } from './signed-in';

export type RouteCaller = { ok: true; signedIn: SignedIn } | { ok: false; refusal: Response };

/**
 * Who calls a console route handler that talks to the API for them. A mutation must come from the
 * console's own pages (Origin check: CSRF); every call needs a sign-in. Scopes are not checked here:
 * the API refuses what the key may not do, and its refusal reaches the browser as it is.
 */
export async function routeCaller(request: Request, kind: 'mutation' | 'read'): Promise<RouteCaller> {
  if (kind === 'mutation' && !isSameOriginRequest(request.headers))
    return {
      ok: false,
      refusal: consoleRefusal(403, ApiErrorCode.Forbidden, 'Cross-site request refused'),
    };
  const signedIn = await currentSignIn();
  if (signedIn === null)
    return {
      ok: false,
      refusal: consoleRefusal(401, ApiErrorCode.Unauthenticated, 'Sign in to the console first'),
    };
  return { ok: true, signedIn };
}
