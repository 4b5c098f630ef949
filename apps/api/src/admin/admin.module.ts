import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AdminSessionsController } from './admin-sessions.controller';
import { AdminSessionsService } from './admin-sessions.service';
import { AdminUsersController } from './admin-users.controller';

@Module({
  imports: [AuditModule],
  controllers: [AdminSessionsController, AdminUsersController],
  providers: [AdminSessionsService],
})
export class AdminModule {}
