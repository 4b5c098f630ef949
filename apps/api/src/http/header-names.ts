/** The header a trusted portal names its end user with (the portal's own id for that user). */
export const END_USER_HEADER = 'x-end-user-id';

/**
 * The display name a trusted portal gives its end user, with `X-End-User-Id`, on every route that
 * acts for an end user (agent turns, sessions, chat completions): UTF-8, sent as raw bytes or
 * percent-encoded (`encodeURIComponent`); bytes that are not UTF-8 are refused.
 */
export const END_USER_NAME_HEADER = 'x-end-user-name';

/** The header that makes a retried agent turn return the first one instead of running again. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The header the console's server sends a signed-in person's session token in (see the contract). */
export { CONSOLE_SESSION_HEADER } from '@agentdesk/api-contract';
