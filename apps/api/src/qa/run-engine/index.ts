// The QA suite run engine (issue 21): import `SuiteRunEngineModule` into the module whose service
// starts and cancels runs, and inject `SuiteRunEngine` there.
export { SuiteRunEngineModule } from './suite-run-engine.module';
export { SuiteRunEngine } from './suite-run-engine';
export { createSuiteRunEngine, type SuiteRunEngineDependencies } from './create-suite-run-engine';
export {
  type CellJob,
  type CellJobRequest,
  type CellQueue,
  type CellJobHandler,
  type CellDelivery,
} from './cell-queue';
export { InProcessCellQueue } from './in-process-cell-queue';
export { PgBossCellQueue, CELL_QUEUE_NAME } from './pg-boss-cell-queue';
export { GIVEN_UP_REASON, MAX_CELL_ATTEMPTS } from './cell-executor';
export { ASSERTION_SANDBOX_SESSION_ID } from './sandbox-assertion-runner';
