/** The header a trusted portal names its end user with (the portal's own id for that user). */
export const END_USER_HEADER = 'x-end-user-id';

/**
 * The display name a trusted portal gives its end user, with `X-End-User-Id`: percent-encoded UTF-8
 * (`encodeURIComponent`), as header bytes are read as Latin-1.
 */
export const END_USER_NAME_HEADER = 'x-end-user-name';

/** The header that makes a retried agent turn return the first one instead of running again. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The header the console's server sends a signed-in person's session token in (see the contract). */
export { CONSOLE_SESSION_HEADER } from '@agentdesk/api-contract';
