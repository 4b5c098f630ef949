import { Module } from '@nestjs/common';
import { SandboxRuntimeModule } from '../shared/sandbox-runtime/sandbox-runtime.module';
import { HealthController } from './health.controller';

@Module({ imports: [SandboxRuntimeModule], controllers: [HealthController] })
export class HealthModule {}
