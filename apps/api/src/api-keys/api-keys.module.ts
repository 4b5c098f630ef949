import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({ imports: [CrossUserAuditModule], controllers: [ApiKeysController], providers: [ApiKeysService] })
export class ApiKeysModule {}
