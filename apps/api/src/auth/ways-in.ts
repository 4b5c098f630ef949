import { CONSOLE_SESSION_HEADER } from '../http/header-names';
import type { WayIn } from '../routes/route-policy';
import { credentialHeaders } from './credentials';

/** Which way in a request's headers take: none, one, or more than one (refused, never guessed). */
export type PresentedWay = WayIn | 'none' | 'ambiguous';

/**
 * The way in a request presents, from the raw header names alone (no value is read here: each way's
 * strategy reads and judges its own headers). API key headers and the console session header
 * together are ambiguous, as two keys are: the server never picks one credential for the client.
 */
export function presentedWayOf(rawHeaders: readonly string[]): PresentedWay {
  let apiKey = false;
  let consoleSession = false;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (name === CONSOLE_SESSION_HEADER) consoleSession = true;
    else if ((credentialHeaders as readonly string[]).includes(name)) apiKey = true;
  }
  if (apiKey && consoleSession) return 'ambiguous';
  if (consoleSession) return 'console-session';
  return apiKey ? 'api-key' : 'none';
}

/** What the guard does with a request: run one way's strategy, or refuse before any strategy runs. */
export type WaySelection =
  | { readonly kind: 'authenticate'; readonly way: WayIn }
  | {
      readonly kind: 'refuse';
      readonly failure: 'ambiguous' | 'way-not-accepted';
      readonly presented: WayIn;
    };

/**
 * Picks the strategy for a route that accepts `accepted` (in order of preference). A request
 * presenting nothing goes to the route's first way, whose strategy answers "missing" (or, for an
 * API key in dev mode, the anonymous user). A credential of a way the route does not accept is
 * refused as such — it is not judged, and not counted as a failed guess.
 */
export function selectWayIn(presented: PresentedWay, accepted: readonly [WayIn, ...WayIn[]]): WaySelection {
  if (presented === 'none') return { kind: 'authenticate', way: accepted[0] };
  // Both kinds of header: refused like two keys are (the API key's rules, its message and its count).
  if (presented === 'ambiguous') return { kind: 'refuse', failure: 'ambiguous', presented: 'api-key' };
  if (accepted.includes(presented)) return { kind: 'authenticate', way: presented };
  return { kind: 'refuse', failure: 'way-not-accepted', presented };
}

const wayDescriptions: Readonly<Record<WayIn, string>> = {
  'api-key': 'an API key (Authorization: Bearer <key> or X-API-Key: <key>)',
  'console-session': "a console session (X-Console-Session: <token>, sent by the console's server)",
};

/** The 401 of a credential this route does not take: says which ways it takes (no secret in it). */
export function wayNotAcceptedMessage(presented: WayIn, accepted: readonly WayIn[]): string {
  return `This route is not called with ${wayDescriptions[presented]}; it takes ${accepted.map((way) => wayDescriptions[way]).join(' or ')}`;
}

/**
 * The one body of every refused console session — missing, malformed, unknown, signed out, timed
 * out, its key revoked — so a token's holder learns nothing about why (the console signs in again).
 */
export const CONSOLE_SESSION_REQUIRED_MESSAGE =
  'A valid console session is required: it ended or is unknown; sign in to the console again';
