import type { Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { RATE_COUNTER } from '../cluster/cluster-tokens';
import type { RateCount, RateCounter } from '../cluster/rate-counter';
import { APP_CONFIG } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { ApiMetrics } from '../metrics/api-metrics';
import { parseApiKey } from '../core/api-key-format';
import { readCredential } from './credentials';

/** The rate-limit bucket of a principal: its API key (a portal's end users share the portal key's budget). */
export function rateLimitKeyOf(principal: Principal): string {
  return principal.apiKeyId === null
    ? `principal:${principal.kind}:${principal.id}`
    : `api-key:${principal.apiKeyId}`;
}

/**
 * The bucket a failed credential counts in: the client address and the key id the presented key
 * names (`no-key-id` for anything that is not a key). A guess at one key from one address fills
 * its own bucket only: colleagues behind the same NAT who typo their keys, or a scanner trying
 * random keys, never block anyone else's key.
 */
export function credentialFailureBucketOf(request: FastifyRequest): string {
  const credential = readCredential(request.raw.rawHeaders);
  const keyId = credential.kind === 'key' ? parseApiKey(credential.key)?.keyId : undefined;
  return `auth-failures:${request.ip}:${keyId ?? 'no-key-id'}`;
}

/**
 * Rate limits, called from the global guard because only it knows the
 * principal (Fastify hooks run before authentication):
 * - per principal: every authenticated request counts;
 * - per (client address, key id): failed credentials count, and once over the limit further
 *   *failures* answer 429 instead of 401. A valid key is always judged on its own and never
 *   refused by this limit: an address's failures must not lock out every key used from it.
 *   (Keys carry 256 random bits, so guessing one is not the threat this limit meets; it slows
 *   floods of bad keys and makes them visible in `agentdesk_rate_limited_total`.)
 * Counts live in the `RateCounter`: Redis shared by every replica when `AGENTDESK_REDIS_URL` is
 * set (so a limit of N is N across all of them), this process's memory otherwise. Fixed windows:
 * request N+1 of a window is refused with `Retry-After` = the rest of the window.
 */
@Injectable()
export class RateLimits {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_COUNTER) private readonly counter: RateCounter,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /** Counts one request of the authenticated principal; throws 429 with `Retry-After` over the limit. */
  async consume(request: FastifyRequest): Promise<void> {
    const { max, windowMs } = this.config.rateLimit;
    const bucket =
      request.principal === undefined ? `address:${request.ip}` : rateLimitKeyOf(request.principal);
    const result = await this.counter.hit(bucket, windowMs);
    if (result.count > max) {
      this.metrics.rateLimited.inc({ limit: 'principal' });
      throw new ApiError(
        ApiErrorCode.RateLimited,
        `Rate limit of ${max} requests per ${windowMs / 1000} s exceeded for this key`,
        { retryAfterSeconds: retryAfterSeconds(result) },
      );
    }
  }

  /**
   * Counts one failed credential in its bucket — (address, key id) for API keys, or the `bucket`
   * another way in names; throws 429 with `Retry-After` once the bucket is over the limit (the
   * caller answers 401 otherwise).
   */
  async recordCredentialFailure(request: FastifyRequest, bucket?: string): Promise<void> {
    const { authFailuresMax, windowMs } = this.config.rateLimit;
    const result = await this.counter.hit(bucket ?? credentialFailureBucketOf(request), windowMs);
    if (result.count > authFailuresMax) {
      this.metrics.rateLimited.inc({ limit: 'auth-failures' });
      throw new ApiError(
        ApiErrorCode.RateLimited,
        'Too many failed credentials for this key from this address; wait before trying again',
        { retryAfterSeconds: retryAfterSeconds(result) },
      );
    }
  }
}

function retryAfterSeconds(result: RateCount): number {
  return Math.max(1, Math.ceil(result.resetInMs / 1000));
}
