import { Module } from '@nestjs/common';
import { AgentModule } from '../agent/agent.module';
import { AuditModule } from '../audit/audit.module';
import { StructuredOutputLab } from './structured-output-lab.service';
import { StructuredOutputRunsController } from './structured-output-runs.controller';

/** The structured-output lab: `/v1/admin/structured-output/runs`. */
@Module({
  imports: [AgentModule, AuditModule],
  controllers: [StructuredOutputRunsController],
  providers: [StructuredOutputLab],
})
export class LabModule {}
