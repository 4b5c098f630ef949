import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { CrossUserAudit } from './cross-user-audit';

@Module({ controllers: [AuditController], providers: [CrossUserAudit], exports: [CrossUserAudit] })
export class AuditModule {}
