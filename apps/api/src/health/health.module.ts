import { Module } from '@nestjs/common';
import { SandboxModule } from '../sandbox/sandbox.module';
import { HealthController } from './health.controller';

@Module({ imports: [SandboxModule], controllers: [HealthController] })
export class HealthModule {}
