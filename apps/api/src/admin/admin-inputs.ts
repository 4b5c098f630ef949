import { z } from 'zod';
import { auditReasonQueryField } from '../audit/audit-reason';
import { adminListSessionsQuery } from '../sessions/session-inputs';
import { cursorSchema, pageSizeSchema, singleLineText } from '../http/inputs';
import { MAX_MESSAGE_PAGE_SIZE, MAX_PAGE_SIZE } from '@agentdesk/storage';

/** `GET /v1/admin/sessions/:id` and `/messages`: a transcript page and the reason for reading it. */
export const adminReadSessionQuery = z
  .object({
    limit: pageSizeSchema(MAX_MESSAGE_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();

/** `GET /v1/admin/sessions`: the session filters and the reason for listing. */
export const adminListSessionsAuditedQuery = z
  .object({ ...adminListSessionsQuery.shape, ...auditReasonQueryField })
  .strict();

/** `GET /v1/admin/users`. */
export const adminListUsersQuery = z
  .object({
    portalId: singleLineText(200).optional(),
    search: singleLineText(200).optional(),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();
