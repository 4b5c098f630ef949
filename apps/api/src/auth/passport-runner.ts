import type { FastifyRequest } from 'fastify';
import type { PassportAuthenticator } from './passport-instance';

/**
 * What passport is handed as "the request": a small object of its own around the Fastify request.
 * Passport writes `login`, `logout`, `isAuthenticated`… onto whatever request it gets; on Fastify's
 * own request object those writes would change its shape on every authenticated call (and every
 * hot path that reads a request would see two shapes). Header strategies read `fastifyRequest`.
 */
export interface PassportRequest {
  readonly fastifyRequest: FastifyRequest;
  /**
   * Where a redirecting strategy keeps what its callback needs (openid-client's keeps `state`,
   * `nonce` and the PKCE verifier in `req.session`); the caller loads and stores it (`sso/`).
   */
  readonly session?: Record<string, unknown>;
  /** Read by openid-client's strategy to tell a callback from a start (`GET`). */
  readonly method?: string;
}

/** How one passport strategy answered one request. */
export type StrategyOutcome =
  | { readonly kind: 'success'; readonly user: unknown; readonly info: unknown }
  | { readonly kind: 'fail'; readonly challenge: unknown }
  | { readonly kind: 'error'; readonly error: unknown }
  /** A strategy that redirects (an OpenID Connect sign-in start) or passes; none of today's does. */
  | { readonly kind: 'redirect'; readonly location: string; readonly status: number }
  | { readonly kind: 'pass' };

/**
 * Runs the strategy registered as `name` on a request through passport, as `@nestjs/passport`'s
 * `AuthGuard` does, with a callback so passport never writes a response itself: every way a
 * strategy can end becomes an outcome for the guard to answer. A redirect is captured from the
 * response passport writes it to, so the promise always settles.
 */
export function runStrategy(
  passport: PassportAuthenticator,
  name: string,
  request: FastifyRequest,
  session?: Record<string, unknown>,
): Promise<StrategyOutcome> {
  return new Promise((resolve) => {
    const redirectCatcher = {
      statusCode: 302,
      location: '',
      setHeader(header: string, value: string): void {
        if (header.toLowerCase() === 'location') this.location = value;
      },
      end(): void {
        resolve({ kind: 'redirect', location: this.location, status: this.statusCode });
      },
    };
    const middleware = passport.authenticate(
      name,
      { session: false },
      (error: unknown, user: unknown, info: unknown) => {
        if (error !== null && error !== undefined) resolve({ kind: 'error', error });
        else if (user === false || user === null || user === undefined)
          resolve({ kind: 'fail', challenge: info });
        else resolve({ kind: 'success', user, info });
      },
    ) as (request: unknown, response: unknown, next: (error?: unknown) => void) => void;
    const passportRequest: PassportRequest =
      session === undefined
        ? { fastifyRequest: request }
        : { fastifyRequest: request, session, method: request.method };
    middleware(passportRequest, redirectCatcher, (error?: unknown) =>
      resolve(error === undefined ? { kind: 'pass' } : { kind: 'error', error }),
    );
  });
}
