import { hash, randomBytes } from 'node:crypto';
import type { CreatedConsoleSessionJson } from '@agentdesk/api-contract';
import type { Principal } from '@agentdesk/authz';
import type { Repositories } from '@agentdesk/storage';
import { Inject, Injectable } from '@nestjs/common';
import { generateConsoleSessionToken } from '../auth/console-session-token';
import type { AppConfig } from '../config/app-config';
import { roleFromClaims, ssoRoleRank } from '../config/sso-role-mapping';
import { APP_CONFIG, REPOSITORIES } from '../core/tokens';
import { toConsoleSessionJson } from '../shared/console-sessions/console-session-json';
import type { OidcProfile } from './oidc-strategy';
import { OidcRegistration } from './oidc-registration';
import { SsoSignInError } from './sso-problems';

/** A one-time code lives one minute: the console's server trades it at once, on the same redirect. */
export const SIGN_IN_CODE_TTL_MS = 60_000;

/**
 * What happens once the provider has vouched for a person: the allowed-domain check, the role
 * from the mapping (no mapped value: refused, never a default role), the user provisioned or
 * refreshed (name, email, role), open console sessions ended when the role went down, and a
 * one-time code for the console. Then the console's server trades that code for a session.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(OidcRegistration) private readonly registration: OidcRegistration,
  ) {}

  /** Provisions the person and returns the one-time code for the console; throws `SsoSignInError`. */
  async complete(profile: OidcProfile): Promise<string> {
    const settings = this.registration.settings();
    const email = emailOf(profile.claims);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!settings.allowedEmailDomains.includes(domain)) throw new SsoSignInError('email-domain-not-allowed');
    const role = roleFromClaims(settings.roleMapping, profile.claims);
    const { identity, previousRole } = await this.repositories.ssoIdentities.provision({
      issuer: settings.issuer.href,
      subject: profile.subject,
      email,
      name: nameOf(profile.claims),
      role,
    });
    // Sessions re-read the role on every request; ending them as well makes the loss visible at once
    // (the console signs in again) and leaves a reason on each session for the admin list.
    if (previousRole !== undefined && ssoRoleRank[role] < ssoRoleRank[previousRole]) {
      await this.repositories.consoleSessions.endAllOfUser(identity.userId, 'role-changed');
    }
    if (role === 'none') throw new SsoSignInError('no-role', { userId: identity.userId });
    const code = randomBytes(32).toString('base64url');
    await this.repositories.ssoIdentities.createSignInCode(
      hashCode(code),
      identity.userId,
      SIGN_IN_CODE_TTL_MS,
    );
    return code;
  }

  /**
   * Trades a one-time code for a console session (`way_in` `oidc`); the token is in this answer
   * only. An unknown, expired or used code — or a user whose role is gone meanwhile — is `code-invalid`.
   */
  async exchange(
    code: string,
    browser: { readonly clientAddress: string | null; readonly userAgent: string | null },
  ): Promise<{ readonly created: CreatedConsoleSessionJson; readonly principal: Principal }> {
    const userId = await this.repositories.ssoIdentities.redeemSignInCode(hashCode(code));
    const role = userId === undefined ? undefined : await this.repositories.ssoIdentities.roleOfUser(userId);
    if (userId === undefined || role === undefined || role === 'none')
      throw new SsoSignInError('code-invalid');
    const { token, tokenHash } = generateConsoleSessionToken();
    const session = await this.repositories.consoleSessions.create({
      tokenHash,
      userId,
      wayIn: 'oidc',
      apiKeyId: null,
      idleTimeoutMs: this.config.consoleSessions.idleTimeoutMs,
      absoluteTimeoutMs: this.config.consoleSessions.absoluteTimeoutMs,
      ...browser,
    });
    const user = await this.repositories.users.getById(userId);
    const principal: Principal = {
      kind: 'user',
      id: userId,
      role,
      portalId: null,
      trustClientUserId: false,
      apiKeyId: null,
    };
    return { created: { session: toConsoleSessionJson(session, user), token }, principal };
  }
}

/** The stored form of a one-time code (a database copy trades nothing). */
function hashCode(code: string): string {
  return hash('sha256', code, 'hex');
}

/** The person's email, lowercased; refused when absent or marked unverified by the provider. */
function emailOf(claims: Readonly<Record<string, unknown>>): string {
  const email = claims['email'];
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email) || claims['email_verified'] === false)
    throw new SsoSignInError('email-missing');
  return email.toLowerCase();
}

/** A display name: `name`, else given and family names, else none (the email identifies them). */
function nameOf(claims: Readonly<Record<string, unknown>>): string | null {
  const name = claims['name'];
  if (typeof name === 'string' && name.trim() !== '') return name.trim().slice(0, 200);
  const parts = [claims['given_name'], claims['family_name']].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' ').slice(0, 200);
}
