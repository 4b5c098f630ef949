import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppDatabase, Repositories } from '@agentdesk/storage';
import type { SessionSandbox } from '@agentdesk/sandbox';
import type { Logger } from 'pino';
import type { QaRunSettings } from '../../config/qa-run-settings';
import type { ModelRouter } from '../../model-access/model-router';
import type { UsageMeter } from '../../shared/metering/usage-meter';
import { CellExecutor } from './cell-executor';
import type { CellQueue } from './cell-queue';
import { CellRecovery } from './cell-recovery';
import { InProcessCellQueue } from './in-process-cell-queue';
import { PgBossCellQueue } from './pg-boss-cell-queue';
import { ProviderSlots } from './provider-slots';
import { RunDirectory } from './run-directory';
import { SandboxAssertionRunner } from './sandbox-assertion-runner';
import { SuiteRunEngine } from './suite-run-engine';

export interface SuiteRunEngineDependencies {
  readonly database: AppDatabase;
  readonly repositories: Pick<Repositories, 'qaRuns' | 'qaSuites'>;
  readonly settings: QaRunSettings;
  readonly router: Pick<ModelRouter, 'resolve'>;
  readonly usageMeter: Pick<UsageMeter, 'record' | 'prices'>;
  /** The assertion sandbox, when this server has one. */
  readonly assertionSandbox: () => SessionSandbox | undefined;
  readonly logger: Logger;
  /** Names this replica on the cells it claims (default: host, process and a random part). */
  readonly workerId?: string;
}

/** Assembles the engine: pg-boss on PostgreSQL (every replica works the queue), in process on SQLite. */
export function createSuiteRunEngine(dependencies: SuiteRunEngineDependencies): SuiteRunEngine {
  const { database, repositories, settings, logger } = dependencies;
  const queue: CellQueue =
    database.dialect === 'postgres'
      ? new PgBossCellQueue({
          database,
          schema: settings.pgBossSchema,
          capacity: settings.cellsInFlight,
          leaseMs: settings.cellLeaseMs,
          logger,
        })
      : new InProcessCellQueue(settings.cellsInFlight);
  const executor = new CellExecutor({
    runs: repositories.qaRuns,
    directory: new RunDirectory(repositories, settings.concurrencyPerProvider),
    router: dependencies.router,
    usageMeter: dependencies.usageMeter,
    slots: new ProviderSlots(),
    runJavaScript: new SandboxAssertionRunner(dependencies.assertionSandbox, logger).run,
    logger,
    workerId: dependencies.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseMs: settings.cellLeaseMs,
  });
  const recovery = new CellRecovery(repositories.qaRuns, queue, settings.cellLeaseMs, logger);
  return new SuiteRunEngine(
    queue,
    executor,
    recovery,
    logger,
    database.dialect === 'postgres' ? 'pg-boss' : 'in-process',
  );
}
