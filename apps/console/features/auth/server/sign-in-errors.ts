/** Why a sign-in did not happen: a code in the sign-in page's URL, never the key or an API internal. */
export const signInErrors = {
  'missing-key': 'Paste an API key to sign in.',
  'invalid-key': 'The API does not accept this key: it is unknown, malformed or revoked.',
  'not-a-console-role': 'This key cannot use the console: sign in with an admin or viewer key.',
  'api-unavailable': 'The API cannot be reached right now; try again in a moment.',
  'cross-site': 'The sign-in form was sent from another site and was refused.',
  expired: 'Your sign-in ended (the key was revoked, or the console restarted): sign in again.',
} as const;

export type SignInErrorCode = keyof typeof signInErrors;

export function signInErrorMessage(code: string | undefined): string | undefined {
  if (code === undefined || !Object.hasOwn(signInErrors, code)) return undefined;
  return signInErrors[code as SignInErrorCode];
}
