import { Module } from '@nestjs/common';
import { QaRunsController } from './qa-runs.controller';
import { QaRuns } from './qa-runs.service';
import { QaSuitesController } from './qa-suites.controller';
import { QaSuites } from './qa-suites.service';
import { SuiteRunEngineModule } from './run-engine';

/** QA suites (issue 21): `/v1/qa/suites` and `/v1/qa/runs`; the run engine works the cells. */
@Module({
  imports: [SuiteRunEngineModule],
  controllers: [QaSuitesController, QaRunsController],
  providers: [QaSuites, QaRuns],
})
export class QaModule {}
