import { getIronSession } from 'iron-session';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Principal } from '@agentdesk/authz';
import { principalOf, type ConsoleIdentity } from './console-identity';
import { consoleSessionOptions, type ConsoleSessionData } from './session-cookie';

/** A signed-in admin or viewer, for server components: the key stays on the server. */
export interface SignedIn {
  apiKey: string;
  identity: ConsoleIdentity;
  principal: Principal;
}

/** The signed-in person, or null. */
export async function currentSignIn(): Promise<SignedIn | null> {
  const session = await getIronSession<ConsoleSessionData>(await cookies(), consoleSessionOptions());
  if (session.apiKey === undefined || session.identity === undefined) return null;
  return { apiKey: session.apiKey, identity: session.identity, principal: principalOf(session.identity) };
}

/** The signed-in person; anyone else is sent to the sign-in page. */
export async function requireSignIn(): Promise<SignedIn> {
  const signedIn = await currentSignIn();
  if (signedIn === null) redirect('/sign-in');
  return signedIn;
}
