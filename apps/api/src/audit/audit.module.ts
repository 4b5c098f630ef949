import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { AuditExportController } from './audit-export.controller';
import { AuditController } from './audit.controller';

/** The audit log's read route, `/v1/admin/audit` (what writes the log is in `shared/audit`). */
@Module({ imports: [CrossUserAuditModule], controllers: [AuditController, AuditExportController] })
export class AuditModule {}
