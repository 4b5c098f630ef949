import { Module } from '@nestjs/common';
import type { AppDatabase, Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG, APP_DATABASE, LOGGER, REPOSITORIES } from '../../core/tokens';
import { ModelAccessModule } from '../../model-access/model-access.module';
import { ModelRouter } from '../../model-access/model-router';
import { SandboxRuntime } from '../../shared/sandbox-runtime/sandbox-runtime';
import { SandboxRuntimeModule } from '../../shared/sandbox-runtime/sandbox-runtime.module';
import { UsageMeter } from '../../shared/metering/usage-meter';
import { createSuiteRunEngine } from './create-suite-run-engine';
import { ASSERTION_SANDBOX_SESSION_ID } from './sandbox-assertion-runner';
import { SuiteRunEngine } from './suite-run-engine';

/** The QA suite run engine, one per app: import this module where runs are started and cancelled. */
@Module({
  imports: [ModelAccessModule, SandboxRuntimeModule],
  providers: [
    {
      provide: SuiteRunEngine,
      useFactory: (
        config: AppConfig,
        database: AppDatabase,
        repositories: Repositories,
        logger: Logger,
        router: ModelRouter,
        usageMeter: UsageMeter,
        sandbox: SandboxRuntime,
      ) =>
        createSuiteRunEngine({
          database,
          repositories,
          settings: config.qaRuns,
          router,
          usageMeter,
          assertionSandbox: () => sandbox.service?.forSession(ASSERTION_SANDBOX_SESSION_ID),
          logger,
        }),
      inject: [APP_CONFIG, APP_DATABASE, REPOSITORIES, LOGGER, ModelRouter, UsageMeter, SandboxRuntime],
    },
  ],
  exports: [SuiteRunEngine],
})
export class SuiteRunEngineModule {}
