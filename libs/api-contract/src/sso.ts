import { z } from 'zod';

/**
 * Why a single sign-on ended without a session: only this code reaches the console (in its URL),
 * which shows a fixed sentence for each — never text from the URL or the provider.
 */
export const ssoProblemCodes = [
  'idp-unavailable',
  'state-mismatch',
  'token-invalid',
  'access-denied',
  'email-missing',
  'email-domain-not-allowed',
  'no-role',
  'code-invalid',
  'sso-off',
  'sign-in-failed',
] as const;
export type SsoProblemCode = (typeof ssoProblemCodes)[number];

/** `GET /v1/sso`: how the console's sign-in page offers signing in. */
export const ssoSignInOptionsJsonSchema = z.object({
  /** Single sign-on is configured: offer "Sign in with <providerName>", a link to `startUrl` (on the API's public origin). */
  sso: z.object({ providerName: z.string(), startUrl: z.string() }).nullable(),
  /** API-key sign-in is offered (always without SSO; beside it only when an operator allows it). */
  keySignIn: z.boolean(),
});
export type SsoSignInOptionsJson = z.infer<typeof ssoSignInOptionsJsonSchema>;

/** `POST /v1/sso/exchange`: the one-time code of a finished sign-in, and the browser the console saw. */
export const ssoExchangeBodySchema = z
  .object({
    code: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    clientAddress: z.string().min(1).max(100).optional(),
    userAgent: z.string().min(1).max(500).optional(),
  })
  .strict();
export type SsoExchangeBody = z.infer<typeof ssoExchangeBodySchema>;
