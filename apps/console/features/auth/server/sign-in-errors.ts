/** Why a sign-in did not happen: a code in the sign-in page's URL, never the key or an API internal. */
export const signInErrors = {
  'missing-key': 'Paste an API key to sign in.',
  'invalid-key': 'The API does not accept this key: it is unknown, malformed or revoked.',
  'not-a-console-role': 'This key cannot use the console: sign in with an admin or viewer key.',
  'api-unavailable': 'The API cannot be reached right now; try again in a moment.',
  'cross-site': 'The sign-in form was sent from another site and was refused.',
  expired:
    'Your sign-in ended (signed out, timed out, ended by an admin, or its key was revoked): sign in again.',
  'sign-out-incomplete':
    'You are signed out of this browser, but the API could not be reached to end the session: it ends by itself once unused for its idle time, or an admin can end it now.',
  // Single sign-on: the API sends the browser back with one of these codes (never a sentence).
  'sso-idp-unavailable':
    'The single sign-on provider cannot be reached right now; try again in a moment, or ask your administrator.',
  'sso-state-mismatch':
    'This sign-in did not start in this browser, or took too long. Start again from this page.',
  'sso-token-invalid':
    'The single sign-on answer could not be verified (expired, already used or not valid). Start again from this page.',
  'sso-access-denied': 'The single sign-on provider did not sign you in (cancelled or refused).',
  'sso-email-missing': 'Your single sign-on account has no verified email address; ask your administrator.',
  'sso-email-domain-not-allowed': 'Your email address is not in a domain allowed to use this console.',
  'sso-no-role':
    'You signed in, but none of your groups gives you a role in this console. Ask your administrator for access.',
  'sso-code-invalid': 'This sign-in link was already used or has expired. Start again from this page.',
  'sso-sso-off': 'Single sign-on is not configured for this console.',
  'sso-sign-in-failed': 'Single sign-on failed. Try again, or ask your administrator (the API logged why).',
} as const;

export type SignInErrorCode = keyof typeof signInErrors;

export function signInErrorMessage(code: string | undefined): string | undefined {
  if (code === undefined || !Object.hasOwn(signInErrors, code)) return undefined;
  return signInErrors[code as SignInErrorCode];
}
