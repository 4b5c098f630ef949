import * as client from 'openid-client';
import type { StrategyOutcome } from '../auth/passport-runner';
import { SsoSignInError, type SsoProblem } from './sso-problems';

/** oauth4webapi's codes for an answer that failed validation (ID token, token answer, keys). */
const validationCodes = new Set([
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_RESPONSE_BODY_ERROR',
  'OAUTH_PARSE_ERROR',
]);

/**
 * The problem code of an error thrown anywhere in a sign-in. Unreachable provider (refused
 * connection, timeout, 5xx) → `idp-unavailable`; a refused code or an answer that failed
 * validation (expired or forged ID token, wrong nonce) → `token-invalid`; the rest `sign-in-failed`.
 */
export function problemOfError(error: unknown): SsoProblem {
  if (error instanceof SsoSignInError) return error.problem;
  if (error instanceof client.AuthorizationResponseError)
    return error.error === 'access_denied' ? 'access-denied' : 'sign-in-failed';
  if (error instanceof client.ResponseBodyError && error.status >= 500) return 'idp-unavailable';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && validationCodes.has(code)) return 'token-invalid';
  if (isUnreachable(error)) return 'idp-unavailable';
  return 'sign-in-failed';
}

/** How a strategy run that did not succeed ends. */
export function problemOfOutcome(outcome: StrategyOutcome): SsoProblem {
  switch (outcome.kind) {
    case 'error':
      return problemOfError(outcome.error);
    case 'fail': {
      // openid-client fails (not errors) for a missing flow state and for the provider's access_denied.
      const challenge = outcome.challenge as { error?: unknown } | undefined;
      return challenge?.error === 'access_denied' ? 'access-denied' : 'state-mismatch';
    }
    case 'success':
    case 'redirect':
    case 'pass':
      // Not a failure where this is asked (a start that did not redirect, a callback that did).
      return 'sign-in-failed';
  }
}

function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (
      current.name === 'TimeoutError' ||
      current.name === 'AbortError' ||
      (current instanceof TypeError && current.message === 'fetch failed') ||
      (typeof code === 'string' &&
        /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|UND_ERR_)/.test(code)) ||
      code === 'OAUTH_RESPONSE_IS_NOT_JSON'
    )
      return true;
    current = current.cause;
  }
  return false;
}
