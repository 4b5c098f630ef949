import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { AdminExportsController } from './admin-exports.controller';
import { AdminSessionsController } from './admin-sessions.controller';
import { AdminSessionsService } from './admin-sessions.service';
import { AdminUsersController } from './admin-users.controller';

@Module({
  imports: [CrossUserAuditModule],
  controllers: [AdminSessionsController, AdminUsersController, AdminExportsController],
  providers: [AdminSessionsService],
})
export class AdminModule {}
