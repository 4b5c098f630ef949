import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { AdminConsoleSessionsController } from './admin-console-sessions.controller';
import { ConsoleSessionsController } from './console-sessions.controller';
import { ConsoleSessionsService } from './console-sessions.service';

/** Console sign-ins kept on the server (see `auth/console-session-authenticator.ts` for their use). */
@Module({
  imports: [CrossUserAuditModule],
  controllers: [ConsoleSessionsController, AdminConsoleSessionsController],
  providers: [ConsoleSessionsService],
})
export class ConsoleSessionsModule {}
