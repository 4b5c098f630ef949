import { z } from 'zod';
import { rangeInOrder } from '../http/date-range';
import { cursorSchema, dateTimeSchema, idSchema, pageSizeSchema, singleLineText } from '../http/inputs';
import { auditOutcomeSchema, auditSortFields } from '@agentdesk/api-contract';
import { sortQueryFields } from '../http/list-sort';
import { MAX_PAGE_SIZE } from '@agentdesk/storage';
import { auditReasonQueryField } from '../shared/audit/audit-reason';

/** `GET /v1/admin/audit`. */
export const listAuditQuery = z
  .object({
    actorId: singleLineText(200).optional(),
    targetUserId: singleLineText(200).optional(),
    sessionId: idSchema.optional(),
    action: singleLineText(100).optional(),
    /** `refused`: every attempt the API turned down, failed sign-ins included. */
    outcome: auditOutcomeSchema.optional(),
    from: dateTimeSchema.optional(),
    before: dateTimeSchema.optional(),
    ...sortQueryFields(auditSortFields),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict()
  .superRefine(rangeInOrder('from', 'before'));
