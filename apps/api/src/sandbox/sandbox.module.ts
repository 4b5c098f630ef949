import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { SandboxRuntimeModule } from '../shared/sandbox-runtime/sandbox-runtime.module';
import { SandboxAdminController } from './sandbox-admin.controller';
import { SandboxAdminService } from './sandbox-admin.service';

/** The sandbox admin routes under `/v1/admin/sandbox`, over the runtime in `shared/sandbox-runtime`. */
@Module({
  imports: [SandboxRuntimeModule, CrossUserAuditModule],
  controllers: [SandboxAdminController],
  providers: [SandboxAdminService],
})
export class SandboxModule {}
