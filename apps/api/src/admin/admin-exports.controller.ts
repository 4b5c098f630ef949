import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { defaultSessionSort, personRoles } from '@agentdesk/api-contract';
import type { Repositories } from '@agentdesk/storage';
import { REPOSITORIES } from '../core/tokens';
import { singleLineText } from '../http/inputs';
import { listSortOf } from '../http/list-sort';
import { ApiKeyAuthenticated, Refuses } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { exportFormatField, withoutPaging } from '../shared/exports/export-inputs';
import { sendExport } from '../shared/exports/send-export';
import { adminListSessionsAuditedQuery } from './admin-inputs';
import { adminPersonQuery, usageDaysOf } from './people-inputs';
import { personExportShape } from './person-export';
import { sessionExportShape } from './session-export';

/** `GET /v1/admin/exports/sessions`: the sessions list's filters and sort, and the format. */
export const exportSessionsQuery = z
  .object({ ...withoutPaging(adminListSessionsAuditedQuery.shape), ...exportFormatField })
  .strict();

/**
 * `GET /v1/admin/exports/users`: the directory's filters (prefix search, portal, role), the range
 * its usage columns cover, and the format.
 */
export const exportUsersQuery = adminPersonQuery.safeExtend({
  q: singleLineText(200)
    .min(1, { error: 'must not be empty' })
    .optional()
    .describe('Start of a name, email or external id (case-insensitive)'),
  portalId: singleLineText(200).min(1, { error: 'must not be empty' }).optional(),
  role: z.enum(personRoles).optional(),
  ...exportFormatField,
});

/**
 * Downloads of what the admin lists show with their filters, streamed (CSV or JSON Lines). Each
 * export writes one audit record with its filter, the rows sent and how it ended.
 */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@DocumentsAuditReason()
@Controller('v1/admin/exports')
export class AdminExportsController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get('sessions')
  @RequireScope('sessions:read-any')
  @ApiOperation({
    summary:
      'Export every session the sessions list shows with these filters and sort, as CSV or JSON Lines, streamed (audited)',
  })
  @ApiProduces('text/csv', 'application/jsonl')
  async sessions(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(exportSessionsQuery) query: z.output<typeof exportSessionsQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const chunks = this.repositories.sessions.exportAllSessionsForAdmin(
      {
        ...(query.userId === undefined ? {} : { ownerUserId: query.userId }),
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.model === undefined ? {} : { model: query.model }),
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.createdFrom === undefined ? {} : { createdFrom: query.createdFrom }),
        ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
        ...(query.label === undefined ? {} : { labelContains: query.label }),
      },
      listSortOf(query, defaultSessionSort),
    );
    await sendExport(reply, withQueryReason(context, query.reason), this.audit, {
      list: 'sessions',
      format: query.format,
      filter: listingFilter({ ...query, format: undefined }),
      shape: sessionExportShape,
      chunks,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
  }

  @Get('users')
  @RequireScope('users:read')
  @ApiOperation({
    summary:
      'Export every user the directory shows with these filters (by id), with sessions, last activity, tokens and ' +
      'cost over a range of days, as CSV or JSON Lines, streamed (audited)',
  })
  @ApiProduces('text/csv', 'application/jsonl')
  async users(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(exportUsersQuery) query: z.output<typeof exportUsersQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const range = usageDaysOf(query, new Date());
    const chunks = this.repositories.people.exportAll(
      {
        ...(query.q === undefined ? {} : { prefix: query.q }),
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.role === undefined ? {} : { role: query.role }),
      },
      range,
    );
    await sendExport(reply, withQueryReason(context, query.reason), this.audit, {
      list: 'users',
      format: query.format,
      filter: listingFilter({ ...query, format: undefined }),
      shape: personExportShape(range),
      chunks,
    });
  }
}
