import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiAccessGuard } from './api-access.guard';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { EffectiveUsers } from './effective-users';
import { RateLimits } from './rate-limits';

/** Authentication (API keys), the global deny-by-default guard, rate limits and effective users. */
@Module({
  providers: [
    ApiKeyAuthenticator,
    RateLimits,
    EffectiveUsers,
    { provide: APP_GUARD, useClass: ApiAccessGuard },
  ],
  exports: [EffectiveUsers],
})
export class AuthModule {}
