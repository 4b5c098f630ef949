import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { SearchController } from './search.controller';

@Module({ imports: [AuditModule], controllers: [SearchController] })
export class SearchModule {}
