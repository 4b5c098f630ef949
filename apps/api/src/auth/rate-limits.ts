import type { Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { ApiMetrics } from '../metrics/api-metrics';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** The rate-limit bucket of a principal: its API key (a portal's end users share the portal key's budget). */
export function rateLimitKeyOf(principal: Principal): string {
  return principal.apiKeyId === null
    ? `principal:${principal.kind}:${principal.id}`
    : `api-key:${principal.apiKeyId}`;
}

/**
 * Rate limits on @fastify/rate-limit's limiter (`createRateLimit`), called from the global guard
 * because only the guard knows the principal (Fastify hooks run before authentication):
 * - per principal: every authenticated request counts;
 * - per client address: failed credentials count, and once over the limit even a correct key
 *   gets 429 until the window ends (slows down key guessing).
 * Counters live in this process (an LRU); with several replicas each enforces its own share.
 */
@Injectable()
export class RateLimits {
  private limiters: { perPrincipal: Limiter; authFailures: Limiter } | undefined;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /** Counts one request of the authenticated principal; throws 429 with `Retry-After` over the limit. */
  async consume(request: FastifyRequest): Promise<void> {
    const result = await this.get().perPrincipal(request);
    if (!result.isAllowed && result.isExceeded) {
      this.metrics.rateLimited.inc({ limit: 'principal' });
      throw new ApiError(
        ApiErrorCode.RateLimited,
        `Rate limit of ${result.max} requests per ${result.timeWindow / 1000} s exceeded for this key`,
        {
          retryAfterSeconds: Math.max(1, result.ttlInSeconds),
        },
      );
    }
  }

  /** Throws 429 when this address already failed too many credentials in the window. */
  async assertCredentialAttemptsAllowed(request: FastifyRequest): Promise<void> {
    const result = await this.get().authFailures(request, { increment: false });
    if (!result.isAllowed && result.remaining <= 0 && result.ttl > 0) {
      this.metrics.rateLimited.inc({ limit: 'auth-failures' });
      throw new ApiError(ApiErrorCode.RateLimited, 'Too many failed credentials from this address', {
        retryAfterSeconds: Math.max(1, result.ttlInSeconds),
      });
    }
  }

  /** Counts one failed credential of this address. */
  async recordCredentialFailure(request: FastifyRequest): Promise<void> {
    await this.get().authFailures(request);
  }

  // Created lazily: the plugin decorates the Fastify instance when `createApp` registers it.
  private get(): { perPrincipal: Limiter; authFailures: Limiter } {
    if (this.limiters === undefined) {
      const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
      const { max, windowMs, authFailuresMax } = this.config.rateLimit;
      this.limiters = {
        perPrincipal: fastify.createRateLimit({
          max,
          timeWindow: windowMs,
          keyGenerator: (request) =>
            request.principal === undefined ? `address:${request.ip}` : rateLimitKeyOf(request.principal),
        }),
        authFailures: fastify.createRateLimit({
          max: authFailuresMax,
          timeWindow: windowMs,
          keyGenerator: (request) => `auth-failures:${request.ip}`,
        }),
      };
    }
    return this.limiters;
  }
}
