import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import passport from 'passport';
import type { AuthenticationResult } from './authentication-result';
import type { PassportAuthenticator } from './passport-instance';
import type { PassportRequest } from './passport-runner';

/** What a successful strategy hands passport besides the principal. */
export interface AuthenticationInfo {
  readonly consoleSessionId: string | undefined;
}

type Verify = (
  request: FastifyRequest,
  done: (error: unknown, result?: AuthenticationResult) => void,
) => void;

/**
 * A passport strategy for a credential in request headers: it asks `verify` (the Nest strategy's
 * `validate`, wired by `@nestjs/passport`'s mixin) for a verdict and reports it to passport —
 * `success(principal)`, `fail(reason, 401)` or `error(e)`. No session, no redirect: one header
 * read and one lookup, so a request costs passport a strategy object and a few closures.
 */
class HeaderCredentialStrategy extends passport.Strategy {
  constructor(
    /** Set first, so `getPassportInstance` can answer while the mixin's constructor registers the strategy. */
    readonly passportInstance: PassportAuthenticator,
    readonly verify: Verify,
  ) {
    super();
  }

  // Passport calls this on a per-request copy (`Object.create(strategy)`) that carries success/fail/error.
  override authenticate(this: passport.StrategyCreated<this>, request: unknown): void {
    this.verify((request as PassportRequest).fastifyRequest, (error, result) => {
      if (error !== null && error !== undefined) return this.error(error);
      if (result === undefined) return this.error(new Error('A strategy gave no verdict'));
      if (!result.ok) return this.fail(result.failure, 401);
      const info: AuthenticationInfo = { consoleSessionId: result.consoleSessionId };
      this.success(result.principal as Express.User, info);
    });
  }
}

/**
 * The base of every header-credential way in: a Nest provider whose `validate(request)` returns an
 * `AuthenticationResult`, registered under `name` in this app's `PASSPORT` (not the global one).
 */
export function CredentialStrategy(name: string) {
  abstract class RegisteredInThisApp extends PassportStrategy(HeaderCredentialStrategy, name) {
    // @nestjs/passport registers the strategy in `getPassportInstance()` from its constructor.
    getPassportInstance(): PassportAuthenticator {
      return this.passportInstance;
    }
  }
  return RegisteredInThisApp;
}
