import { ApiErrorCode, type ErrorBody } from '@agentdesk/api-contract';

/**
 * Why a console route handler answers a refusal of its own instead of the API's. The closed list
 * is the console's whole error vocabulary: anything else the browser sees is the API's refusal,
 * relayed as it came.
 */
export type ConsoleRefusalReason =
  /** A state-changing request whose Origin is missing or another site's (CSRF). */
  | 'cross-site'
  /** No console sign-in in the cookie. */
  | 'signed-out'
  /** Signed in, but the role lacks the scope (checked here too so a refused form never reaches the API). */
  | 'role-may-not'
  /** The request to the console itself is malformed; the message names the field. */
  | 'invalid-input'
  /** The console has nothing at this address (e.g. an export of a list it does not know). */
  | 'not-found'
  /** The API could not be reached, or answered outside its contract. */
  | 'api-unreachable';

/**
 * Each reason as the API's own code with the status the API gives that code
 * (`apps/api/src/errors/http-status.ts`), so the browser reads one vocabulary whoever refused and
 * an unreachable API is one code on every route. `UPSTREAM_FAILED` is the API's code for a
 * dependency that failed behind it at 502 — here the API itself, behind the console. A `Record`: a
 * new reason does not compile until it has its code.
 */
export const consoleRefusalCodes: Readonly<
  Record<ConsoleRefusalReason, { readonly status: number; readonly code: ApiErrorCode }>
> = {
  'cross-site': { status: 403, code: ApiErrorCode.Forbidden },
  'signed-out': { status: 401, code: ApiErrorCode.Unauthenticated },
  'role-may-not': { status: 403, code: ApiErrorCode.Forbidden },
  'invalid-input': { status: 400, code: ApiErrorCode.ValidationFailed },
  'not-found': { status: 404, code: ApiErrorCode.NotFound },
  'api-unreachable': { status: 502, code: ApiErrorCode.UpstreamFailed },
};

/** The reasons whose words never change: the same sentence on every route handler. */
const fixedMessages = {
  'cross-site': 'Cross-site request refused',
  'signed-out': 'Sign in to the console first',
} as const satisfies Partial<Record<ConsoleRefusalReason, string>>;

type FixedMessageReason = keyof typeof fixedMessages;

function hasFixedMessage(reason: ConsoleRefusalReason): reason is FixedMessageReason {
  return Object.hasOwn(fixedMessages, reason);
}

/** Answers no cache may keep: refusals, and everything relayed from the API. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

/**
 * A refusal the console itself answers with, in the API's error body (`requestId` null: no API
 * request was made, or its id did not come back).
 */
export function consoleRefusal(reason: FixedMessageReason): Response;
export function consoleRefusal(
  reason: Exclude<ConsoleRefusalReason, FixedMessageReason>,
  message: string,
): Response;
export function consoleRefusal(reason: ConsoleRefusalReason, message?: string): Response {
  const { status, code } = consoleRefusalCodes[reason];
  // The overloads make every other reason bring its message; the code alone is a last resort.
  const words = message ?? (hasFixedMessage(reason) ? fixedMessages[reason] : code);
  const body: ErrorBody = { error: { code, message: words, requestId: null } };
  return Response.json(body, { status, headers: NO_STORE });
}

/**
 * Whether the API refused the address itself (`path.id: must be an id …`, a 400 of its validation):
 * an address that can name nothing, which a page answers as not found.
 */
export function refusesTheAddress(error: { status: number; code: string; message: string }): boolean {
  return (
    error.status === 400 && error.code === ApiErrorCode.ValidationFailed && error.message.startsWith('path.')
  );
}
