import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SandboxRuntimeModule } from '../shared/sandbox-runtime/sandbox-runtime.module';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [AuthModule, SandboxRuntimeModule],
  controllers: [SessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
