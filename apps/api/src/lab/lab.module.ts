import { Module } from '@nestjs/common';
import { ModelAccessModule } from '../model-access/model-access.module';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { StructuredOutputLab } from './structured-output-lab.service';
import { StructuredOutputRunsController } from './structured-output-runs.controller';

/** The structured-output lab: `/v1/admin/structured-output/runs`. */
@Module({
  imports: [ModelAccessModule, CrossUserAuditModule],
  controllers: [StructuredOutputRunsController],
  providers: [StructuredOutputLab],
})
export class LabModule {}
