import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { UsageExportController } from './usage-export.controller';
import { UsageController } from './usage.controller';

/** The admin usage report over what the meter (`shared/metering`) stored. */
@Module({
  imports: [CrossUserAuditModule],
  controllers: [UsageController, UsageExportController],
})
export class UsageModule {}
