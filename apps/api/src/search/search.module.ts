import { Module } from '@nestjs/common';
import { CrossUserAuditModule } from '../shared/audit/cross-user-audit.module';
import { SearchController } from './search.controller';

@Module({ imports: [CrossUserAuditModule], controllers: [SearchController] })
export class SearchModule {}
