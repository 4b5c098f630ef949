import type { Principal } from '@agentdesk/authz';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import passport from 'passport';
import { Strategy } from 'passport-custom';
import type { AccessContext } from '../core/access-context';
import { ACCESS_CONTEXT } from '../core/tokens';
import {
  AMBIGUOUS_CREDENTIALS_MESSAGE,
  ApiError,
  ApiErrorCode,
  UNAUTHENTICATED_MESSAGE,
} from '../errors/api-error';
import { ApiMetrics } from '../metrics/api-metrics';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RateLimits } from './rate-limits';

// The mixin would register the strategy under passport-custom's fixed name; we register it below
// under this app instance's own name instead (see `AccessContext.strategyName`).
const deferredRegistration = { use: (): void => undefined };

/**
 * The passport strategy behind the global guard: API keys from `Authorization: Bearer` or
 * `X-API-Key` (and the anonymous principal in dev mode). Every failure answers the same 401.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy) implements OnModuleDestroy {
  constructor(
    @Inject(ACCESS_CONTEXT) private readonly access: AccessContext,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {
    super();
    passport.use(access.strategyName, this);
  }

  /** Called by the mixin during construction. */
  getPassportInstance(): typeof deferredRegistration {
    return deferredRegistration;
  }

  async validate(request: FastifyRequest): Promise<Principal> {
    // A valid key is judged on its own: earlier failures from its address never refuse it.
    const result = await this.authenticator.authenticate(request);
    if (result.ok) return result.principal;
    this.metrics.authenticationFailures.inc({ reason: result.failure });
    // A request without any credential is not a guess; only presented credentials count (and may answer 429).
    if (result.failure !== 'missing') await this.rateLimits.recordCredentialFailure(request);
    throw new ApiError(
      ApiErrorCode.Unauthenticated,
      result.failure === 'ambiguous' ? AMBIGUOUS_CREDENTIALS_MESSAGE : UNAUTHENTICATED_MESSAGE,
    );
  }

  onModuleDestroy(): void {
    passport.unuse(this.access.strategyName);
  }
}
