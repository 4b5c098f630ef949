import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { UsageController } from './usage.controller';

@Module({ imports: [AuditModule], controllers: [UsageController] })
export class UsageModule {}
