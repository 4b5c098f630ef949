import * as client from 'openid-client';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { isLoopbackUrl, type SsoSettings } from '../config/sso-settings';
import { APP_CONFIG } from '../core/tokens';
import { PASSPORT, type PassportAuthenticator } from '../auth/passport-instance';
import { AgentDeskOidcStrategy, verifyWithUserInfo } from './oidc-strategy';
import { SsoSignInError } from './sso-problems';

/** The name of the OpenID Connect strategy in this app's passport registry. */
export const OIDC_STRATEGY = 'oidc';

/** Where the provider sends the browser back (registered at the provider as the redirect URI). */
export function callbackUrlOf(settings: SsoSettings): URL {
  return new URL('/v1/sso/callback', settings.apiPublicUrl);
}

/**
 * Registers the `oidc` strategy once the provider's discovery document has been read. Lazily, at
 * the first sign-in, not at start: a provider that is down must not keep the API (and every key
 * holder) from starting; a sign-in meanwhile ends on the `idp-unavailable` page and the next one
 * tries again.
 */
@Injectable()
export class OidcRegistration {
  private discovery: Promise<void> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PASSPORT) private readonly passport: PassportAuthenticator,
  ) {}

  /** The SSO settings; `sso-off` when single sign-on is not configured. */
  settings(): SsoSettings {
    if (this.config.sso === undefined) throw new SsoSignInError('sso-off');
    return this.config.sso;
  }

  /** Resolves once the strategy is registered; `idp-unavailable` when discovery fails (retried next time). */
  async ensureRegistered(): Promise<void> {
    const settings = this.settings();
    this.discovery ??= this.register(settings).catch((error: unknown) => {
      this.discovery = undefined;
      throw new SsoSignInError('idp-unavailable', { cause: error });
    });
    return this.discovery;
  }

  private async register(settings: SsoSettings): Promise<void> {
    const configuration = await client.discovery(
      settings.issuer,
      settings.clientId,
      undefined,
      client.ClientSecretPost(settings.clientSecret.reveal()),
      {
        // Plain http is accepted only for a loopback issuer (tests, the demo); config refuses it elsewhere.
        ...(isLoopbackUrl(settings.issuer) ? { execute: [client.allowInsecureRequests] } : {}),
        timeout: 5,
      },
    );
    // Every later call to the provider (token, userinfo, keys) gets the same deadline.
    configuration.timeout = 5;
    const strategy = new AgentDeskOidcStrategy(
      {
        config: configuration,
        name: OIDC_STRATEGY,
        sessionKey: OIDC_STRATEGY,
        scope: settings.scopes.join(' '),
        callbackURL: callbackUrlOf(settings).href,
      },
      verifyWithUserInfo(configuration),
    );
    this.passport.use(OIDC_STRATEGY, strategy as unknown as Parameters<PassportAuthenticator['use']>[1]);
  }
}
