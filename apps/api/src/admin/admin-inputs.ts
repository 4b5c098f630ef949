import { z } from 'zod';
import { auditReasonSchema } from '../audit/audit-reason';
import { cursorSchema, pageSizeSchema, singleLineText } from '../http/inputs';
import { MAX_MESSAGE_PAGE_SIZE, MAX_PAGE_SIZE } from '@agentdesk/storage';

/** `GET /v1/admin/sessions/:id` and `/messages`: a transcript page and the reason for reading it. */
export const adminReadSessionQuery = z
  .object({
    limit: pageSizeSchema(MAX_MESSAGE_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    reason: auditReasonSchema.optional(),
  })
  .strict();

/** `GET /v1/admin/users`. */
export const adminListUsersQuery = z
  .object({
    portalId: singleLineText(200).optional(),
    search: singleLineText(200).optional(),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
  })
  .strict();
