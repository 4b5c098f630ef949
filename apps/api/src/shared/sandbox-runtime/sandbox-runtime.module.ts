import { Module } from '@nestjs/common';
import type { AppDatabase, Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG, APP_DATABASE, LOGGER, REPOSITORIES } from '../../core/tokens';
import { SandboxRuntime } from './sandbox-runtime';

/**
 * The per-session Docker sandbox runtime (started with the app, stopped with it): the agent turn
 * takes its tools from it, session deletion cleans up through it, `/readyz` asks it, and the
 * sandbox admin routes drive it.
 */
@Module({
  providers: [
    {
      provide: SandboxRuntime,
      useFactory: (config: AppConfig, database: AppDatabase, repositories: Repositories, logger: Logger) =>
        new SandboxRuntime(config.sandbox, database, repositories, logger),
      inject: [APP_CONFIG, APP_DATABASE, REPOSITORIES, LOGGER],
    },
  ],
  exports: [SandboxRuntime],
})
export class SandboxRuntimeModule {}
