/** Why an authorization decision refused a request. */
export enum AuthzErrorCode {
  /** A user (or anonymous) key named a user other than itself. */
  UserMismatch = 'AUTHZ_USER_MISMATCH',
  /** A portal key without `trustClientUserId` named an end user. */
  PortalNotTrusted = 'AUTHZ_PORTAL_NOT_TRUSTED',
  /** The named user id is empty, too long or contains control characters. */
  InvalidRequestedUserId = 'AUTHZ_INVALID_REQUESTED_USER_ID',
}

/** The one error type of `@agentdesk/authz`; the API maps `code` to an HTTP answer. */
export class AuthzError extends Error {
  override readonly name = 'AuthzError';
  readonly code: AuthzErrorCode;

  constructor(code: AuthzErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Narrows an unknown thrown value to an `AuthzError`. */
export function isAuthzError(error: unknown): error is AuthzError {
  return error instanceof AuthzError;
}
