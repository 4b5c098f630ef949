import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [AuthModule, SandboxModule],
  controllers: [SessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
