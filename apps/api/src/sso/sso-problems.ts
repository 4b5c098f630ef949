import { ssoProblemCodes, type SsoProblemCode } from '@agentdesk/api-contract';

/**
 * Why a single sign-on ended without a session: a closed vocabulary. Only the code travels (in the
 * console's URL); the console maps it to a fixed sentence, so nothing an attacker writes into a
 * URL or an IdP answer is ever shown as an official message.
 */
/** The codes, each explained in `@agentdesk/api-contract`'s `sso.ts`. */
export const ssoProblems = ssoProblemCodes;

export type SsoProblem = SsoProblemCode;

/** A sign-in that ended on one of the problems above (thrown inside the SSO flow, turned into a redirect). */
export class SsoSignInError extends Error {
  override readonly name = 'SsoSignInError';

  /** The person, when the provider had vouched for them before the refusal (no mapped role). */
  readonly userId: string | undefined;

  constructor(
    readonly problem: SsoProblem,
    options?: { cause?: unknown; userId?: string },
  ) {
    super(`Single sign-on refused: ${problem}`, options);
    this.userId = options?.userId;
  }
}
