import { consoleRefusal } from '../../api-client';
import { isSameOriginRequest } from './same-origin';
import { currentSignIn, type SignedIn } from './signed-in';

export type RouteCaller = { ok: true; signedIn: SignedIn } | { ok: false; refusal: Response };

/**
 * How a route handler is called, which decides what it checks and how it refuses:
 * - `read`: a `fetch` from a console page that changes nothing (no Origin check: a GET);
 * - `mutation`: a `fetch` that changes something, so it must come from the console's own pages;
 * - `form-post`: a form the browser posts and then shows the answer of, so a signed-out person is
 *   sent to the sign-in page rather than shown a JSON refusal.
 */
export type RouteCallKind = 'read' | 'mutation' | 'form-post';

/**
 * The CSRF refusal of a state-changing route handler, or null when the request comes from the
 * console's own pages. The sign-in and sign-out handlers, which need no sign-in, use it alone.
 */
export function crossSiteRefusal(request: Request): Response | null {
  return isSameOriginRequest(request.headers) ? null : consoleRefusal('cross-site');
}

/** Where a signed-out person's form post goes: the sign-in page. */
function toSignIn(): Response {
  return new Response(null, { status: 303, headers: { location: '/sign-in', 'cache-control': 'no-store' } });
}

/**
 * Who calls a console route handler that talks to the API for them: the first line of every
 * handler but the sign-in's own. Scopes are not checked here: the API refuses what the role may not
 * do, and its refusal reaches the browser as it is (a handler may check a scope earlier with
 * `consoleRefusal('role-may-not', …)`).
 */
export async function routeCaller(request: Request, kind: RouteCallKind): Promise<RouteCaller> {
  if (kind !== 'read') {
    const refusal = crossSiteRefusal(request);
    if (refusal !== null) return { ok: false, refusal };
  }
  const signedIn = await currentSignIn();
  if (signedIn === null)
    return { ok: false, refusal: kind === 'form-post' ? toSignIn() : consoleRefusal('signed-out') };
  return { ok: true, signedIn };
}
