import { Module } from '@nestjs/common';
import { CrossUserAudit } from './cross-user-audit';

/** The one `CrossUserAudit` of the app, for every feature that records reads and changes of other users' data. */
@Module({ providers: [CrossUserAudit], exports: [CrossUserAudit] })
export class CrossUserAuditModule {}
