import * as client from 'openid-client';
import { Strategy } from 'openid-client/passport';
import type passport from 'passport';
import type { PassportRequest } from '../auth/passport-runner';

/** What the provider said about the person, merged from the ID token and the userinfo endpoint. */
export interface OidcProfile {
  readonly subject: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

type StrategyRequest = Parameters<Strategy['currentUrl']>[0];

/**
 * openid-client's passport strategy, as this API runs it:
 * - `state` and `nonce` always: the library sends neither when the provider supports PKCE (PKCE
 *   alone binds the code to this browser), but a provider may still mix up sign-ins, and the nonce
 *   binds the ID token to this sign-in; it then checks both on the callback.
 * - The callback URL is rebuilt from the configured public URL and the request's path and query,
 *   never from the `Host` header (a proxy or an attacker could set it).
 */
export class AgentDeskOidcStrategy extends Strategy {
  override authorizationRequestParams(
    request: StrategyRequest,
    options: Parameters<Strategy['authorizationRequestParams']>[1],
  ): URLSearchParams {
    const params = new URLSearchParams(super.authorizationRequestParams(request, options));
    params.set('state', client.randomState());
    params.set('nonce', client.randomNonce());
    return params;
  }

  override currentUrl(request: StrategyRequest): URL {
    const fastifyRequest = (request as unknown as PassportRequest).fastifyRequest;
    return new URL(fastifyRequest.url, this.publicOrigin());
  }

  private publicOrigin(): string {
    return (this as unknown as { _callbackURL: URL })._callbackURL.origin;
  }
}

/**
 * The strategy's verify step: the ID token is already validated (signature, issuer, audience,
 * expiry, nonce) by openid-client; this adds the userinfo claims (providers put groups and profile
 * claims there rather than in the ID token) — the `sub` of both must agree, which the library checks.
 */
export function verifyWithUserInfo(config: client.Configuration) {
  return (
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
    done: passport.AuthenticateCallback,
  ) => {
    const idClaims = tokens.claims();
    if (idClaims === undefined) {
      done(new client.ClientError('no ID token in the token answer'));
      return;
    }
    const subject = idClaims.sub;
    client
      .fetchUserInfo(config, tokens.access_token, subject)
      .then((userInfo) => {
        const profile: OidcProfile = { subject, claims: { ...userInfo, ...idClaims } };
        done(null, profile as unknown as Express.User);
      })
      .catch((error: unknown) => done(error));
  };
}
