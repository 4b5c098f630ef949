import { Module } from '@nestjs/common';
import type { AppDatabase, Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AuditModule } from '../audit/audit.module';
import { APP_CONFIG, APP_DATABASE, LOGGER, REPOSITORIES } from '../core/tokens';
import { SandboxAdminController } from './sandbox-admin.controller';
import { SandboxAdminService } from './sandbox-admin.service';
import { SandboxRuntime } from './sandbox-runtime';

/**
 * Per-session Docker sandboxes: the runtime (started with the app, stopped with it) that the agent
 * turn takes its tools from, session deletion cleans up through, and `/readyz` asks; and the admin
 * routes under `/v1/admin/sandbox`.
 */
@Module({
  imports: [AuditModule],
  controllers: [SandboxAdminController],
  providers: [
    {
      provide: SandboxRuntime,
      useFactory: (config: AppConfig, database: AppDatabase, repositories: Repositories, logger: Logger) =>
        new SandboxRuntime(config.sandbox, database, repositories, logger),
      inject: [APP_CONFIG, APP_DATABASE, REPOSITORIES, LOGGER],
    },
    SandboxAdminService,
  ],
  exports: [SandboxRuntime],
})
export class SandboxModule {}
