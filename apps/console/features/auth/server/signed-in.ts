import { getIronSession } from 'iron-session';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Principal } from '@agentdesk/authz';
import type { ApiCredential } from '../../api-client';
import { REQUEST_PATH_HEADER, signInHref } from '../return-path';
import { principalOf, type ConsoleIdentity } from './console-identity';
import { consoleSessionOptions, type ConsoleSessionData } from './session-cookie';

/**
 * A signed-in admin or viewer, for server components: the console session's token stays on the
 * server, and every API call is made with it (`credential`).
 */
export interface SignedIn {
  credential: ApiCredential;
  identity: ConsoleIdentity;
  principal: Principal;
}

/**
 * The signed-in person as the cookie says, or null. Whether the session is still open is the API's
 * to say on the next call (a 401 sends the person to sign in again).
 */
export async function currentSignIn(): Promise<SignedIn | null> {
  const session = await getIronSession<ConsoleSessionData>(await cookies(), consoleSessionOptions());
  if (session.consoleSessionToken === undefined || session.identity === undefined) return null;
  return {
    credential: { consoleSession: session.consoleSessionToken },
    identity: session.identity,
    principal: principalOf(session.identity),
  };
}

/**
 * The signed-in person; anyone else is sent to the sign-in page, which returns them to the page
 * they asked for (its path as `proxy.ts` recorded it, checked to be one of this console's).
 */
export async function requireSignIn(): Promise<SignedIn> {
  const signedIn = await currentSignIn();
  if (signedIn === null) redirect(signInHref((await headers()).get(REQUEST_PATH_HEADER)));
  return signedIn;
}
