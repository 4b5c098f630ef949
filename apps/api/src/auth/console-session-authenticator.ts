import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { OpenConsoleSession, Repositories } from '@agentdesk/storage';
import type { Principal } from '@agentdesk/authz';
import type { AppConfig } from '../config/app-config';
import { activityRecordIntervalMs } from '../config/console-session-settings';
import { APP_CONFIG, REPOSITORIES } from '../core/tokens';
import { CONSOLE_SESSION_HEADER } from '../http/header-names';
import { readSingleHeader } from '../http/raw-headers';
import { principalOfKey } from './api-key-authenticator';
import type { AuthenticationResult } from './authentication-result';
import { hashConsoleSessionToken, isConsoleSessionToken } from './console-session-token';

/**
 * Turns a request's console session token into the principal of the person signed in.
 *
 * Nothing is cached: each request reads the session (one indexed statement, with its key), so
 * sign-out, revocation of the key, an admin ending it and the timeouts take effect on the very next
 * request on every replica, with nothing to broadcast. The console is a few people's tool, so a
 * read per request is cheap; API keys, which portals use at volume, keep their cache.
 *
 * The principal is re-derived from its source on every request — for a key sign-in, the key's row
 * (revoked: refused), so the console can never do more than the key could.
 */
@Injectable()
export class ConsoleSessionAuthenticator {
  private readonly recordIntervalMs: number;

  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.recordIntervalMs = activityRecordIntervalMs(config.consoleSessions.idleTimeoutMs);
  }

  async authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
    const presented = readSingleHeader(request.raw.rawHeaders, CONSOLE_SESSION_HEADER);
    if (presented.kind === 'absent') return { ok: false, failure: 'missing' };
    if (presented.kind === 'repeated') return { ok: false, failure: 'ambiguous' };
    const token = presented.value.trim();
    if (!isConsoleSessionToken(token)) return { ok: false, failure: 'malformed' };
    const open = await this.repositories.consoleSessions.findOpenByTokenHash(hashConsoleSessionToken(token));
    const principal = open === undefined ? undefined : await this.principalOfSession(open);
    if (open === undefined || principal === undefined) return { ok: false, failure: 'unknown-or-revoked' };
    // Awaited: a use recorded after the answer could land after the idle timeout it was meant to push back.
    await this.repositories.consoleSessions.recordActivity(
      open.session,
      this.config.consoleSessions.idleTimeoutMs,
      this.recordIntervalMs,
    );
    return { ok: true, principal, consoleSessionId: open.session.id };
  }

  /**
   * Who an open session acts as. A key sign-in: exactly the key's principal (its role and scopes).
   * A single sign-on: the role the role mapping gave the user at their last sign-in, read on each
   * request (one indexed read), so a lowered role applies at once; `none` opens nothing.
   */
  private async principalOfSession(open: OpenConsoleSession): Promise<Principal | undefined> {
    if (open.apiKey !== null) return principalOfKey(open.apiKey);
    if (open.session.wayIn !== 'oidc') return undefined;
    const role = await this.repositories.ssoIdentities.roleOfUser(open.session.userId);
    if (role === undefined || role === 'none') return undefined;
    return {
      kind: 'user',
      id: open.session.userId,
      role,
      portalId: null,
      trustClientUserId: false,
      apiKeyId: null,
    };
  }
}
