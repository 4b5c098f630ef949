import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiAccessGuard } from './api-access.guard';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyStrategy } from './api-key.strategy';
import { ConsoleSessionAuthenticator } from './console-session-authenticator';
import { ConsoleSessionStrategy } from './console-session.strategy';
import { EffectiveUsers } from './effective-users';
import { PASSPORT, passportProvider } from './passport-instance';
import { RateLimits } from './rate-limits';

/**
 * Authentication through passport — one strategy per way in (API keys, console sessions), in this
 * app's own registry — the global deny-by-default guard, rate limits and effective users.
 */
@Module({
  providers: [
    passportProvider,
    ApiKeyAuthenticator,
    ApiKeyStrategy,
    ConsoleSessionAuthenticator,
    ConsoleSessionStrategy,
    RateLimits,
    EffectiveUsers,
    { provide: APP_GUARD, useClass: ApiAccessGuard },
  ],
  // PASSPORT: single sign-on registers its `oidc` strategy in the same registry (`sso/`).
  exports: [EffectiveUsers, PASSPORT],
})
export class AuthModule {}
