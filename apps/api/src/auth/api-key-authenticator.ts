import { anonymousPrincipal, portalPrincipal, userPrincipal, type Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isLoopbackHost, type AppConfig } from '../config/app-config';
import type { AccessContext } from '../core/access-context';
import { ACCESS_CONTEXT, APP_CONFIG, LOGGER, REPOSITORIES } from '../core/tokens';
import type { ApiKey, Repositories } from '@agentdesk/storage';
import { KeyRevocations } from '../cluster/key-revocations';
import { hashApiKey, hashesEqual, parseApiKey } from '../core/api-key-format';
import type { AuthenticationResult } from './authentication-result';
import { readCredential } from './credentials';
import { VerifiedKeyCache } from './verified-key-cache';

/** How often one process writes a key's `last_used_at` (the repository throttles too). */
const LAST_USED_RECORD_INTERVAL_MS = 60_000;

/**
 * Turns a request's API key into a `Principal`. Keys are looked up by the SHA-256 of the whole
 * key among unrevoked keys, then the stored hash is compared in constant time and the key id
 * embedded in the key must match. A verified key is then cached for a few seconds
 * (`VerifiedKeyCache`); a revocation removes it from every replica's cache through
 * `KeyRevocations`, and while revocations cannot reach this process (Redis subscriber down) the
 * cache is not used at all.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly lastUseRecorded = new Map<string, number>();
  private readonly cache: VerifiedKeyCache;

  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ACCESS_CONTEXT) private readonly access: AccessContext,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(KeyRevocations) private readonly revocations: KeyRevocations,
  ) {
    this.cache = new VerifiedKeyCache(config.cluster.keyCacheTtlMs, config.cluster.keyCacheSize);
    revocations.onRevoked((apiKeyId) => this.cache.forget(apiKeyId));
  }

  async authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
    const credential = readCredential(request.raw.rawHeaders);
    switch (credential.kind) {
      case 'none':
        return this.anonymousOrMissing(request);
      case 'malformed':
        return { ok: false, failure: 'malformed' };
      case 'ambiguous':
        return { ok: false, failure: 'ambiguous' };
      case 'key':
        return this.authenticateKey(credential.key);
    }
  }

  /** Dev mode only, and only for requests from this machine (the server is bound to loopback too). */
  private anonymousOrMissing(request: FastifyRequest): AuthenticationResult {
    if (
      this.config.auth.devMode &&
      this.access.devUserId !== null &&
      isLoopbackHost(normalizeAddress(request.socket.remoteAddress))
    ) {
      return { ok: true, principal: anonymousPrincipal };
    }
    return { ok: false, failure: 'missing' };
  }

  private async authenticateKey(key: string): Promise<AuthenticationResult> {
    const parsed = parseApiKey(key);
    if (parsed === undefined) return { ok: false, failure: 'malformed' };
    const secretHash = hashApiKey(key);
    const useCache = this.cache.enabled && this.revocations.isLive;
    const cached = useCache ? this.cache.get(parsed.keyId, secretHash) : undefined;
    if (cached !== undefined) {
      this.recordUse(parsed.keyId);
      return { ok: true, principal: cached };
    }
    const epoch = this.cache.epoch;
    const stored = await this.repositories.apiKeys.findActiveBySecretHash(secretHash);
    if (stored === undefined || stored.id !== parsed.keyId || !hashesEqual(secretHash, stored.secretHash)) {
      return { ok: false, failure: 'unknown-or-revoked' };
    }
    const principal = principalOfKey(stored);
    if (useCache) this.cache.remember(stored.id, secretHash, principal, epoch);
    this.recordUse(stored.id);
    return { ok: true, principal };
  }

  // Fire-and-forget, at most once a minute per key per process: a busy key costs no write per request.
  private recordUse(apiKeyId: string): void {
    const now = Date.now();
    const last = this.lastUseRecorded.get(apiKeyId);
    if (last !== undefined && now - last < LAST_USED_RECORD_INTERVAL_MS) return;
    this.lastUseRecorded.set(apiKeyId, now);
    if (this.lastUseRecorded.size > 10_000) this.lastUseRecorded.clear();
    this.repositories.apiKeys.recordUse(apiKeyId).catch((error: unknown) => {
      this.logger.warn({ err: error, apiKeyId }, 'could not record API key use');
    });
  }
}

/** The principal a stored key authenticates as. */
export function principalOfKey(key: ApiKey): Principal {
  if (key.role === 'portal') {
    return portalPrincipal({
      portalId: key.portalId,
      trustClientUserId: key.trustClientUserId,
      apiKeyId: key.id,
    });
  }
  return userPrincipal({ id: key.ownerUserId, role: key.role, portalId: key.portalId, apiKeyId: key.id });
}

function normalizeAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
