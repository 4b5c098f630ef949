import { z } from 'zod';
import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { sessionCreatedRangeInOrder, sessionFilters } from '../shared/sessions/session-filters';
import { cursorSchema, idSchema, pageSizeSchema, singleLineText, wholeNumberInRange } from '../http/inputs';
import { MAX_MESSAGE_PAGE_SIZE, MAX_PAGE_SIZE } from '@agentdesk/storage';
import { MAX_TOOL_RESULT_PAGE_CHARACTERS, sessionSortFields } from '@agentdesk/api-contract';
import { sortQueryFields } from '../http/list-sort';

/** `GET /v1/admin/sessions/:id` and `/messages`: a transcript page and the reason for reading it. */
export const adminReadSessionQuery = z
  .object({
    limit: pageSizeSchema(MAX_MESSAGE_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();

/** `GET /v1/admin/sessions/:id/live`: the reason for following it. */
export const adminFollowSessionQuery = z.object({ ...auditReasonQueryField }).strict();

/** An exact-match filter value: one line, not empty (an empty filter is left out, not sent). */
const exactFilter = (maxLength: number) => singleLineText(maxLength).min(1, { error: 'must not be empty' });

/** `GET /v1/admin/sessions` query: the same filters plus the owner, the owner's portal and the model. */
const adminListSessionsQuery = z
  .object({
    ...sessionFilters,
    userId: singleLineText(64).optional(),
    user: exactFilter(200)
      .optional()
      .describe('The owner by name, email, external id or id (exact, case-insensitive)'),
    portalId: exactFilter(200).optional(),
    model: exactFilter(200).optional(),
    ...sortQueryFields(sessionSortFields),
  })
  .strict();

/** `GET /v1/admin/sessions`: the session filters and the reason for listing. */
export const adminListSessionsAuditedQuery = z
  .object({ ...adminListSessionsQuery.shape, ...auditReasonQueryField })
  .strict()
  .superRefine(sessionCreatedRangeInOrder);

/** Users one lookup may name (one page of the largest size). */
export const MAX_USER_IDS = MAX_PAGE_SIZE;

/** `GET /v1/admin/users`. */
export const adminListUsersQuery = z
  .object({
    portalId: singleLineText(200).optional(),
    search: singleLineText(200).optional(),
    ids: z
      .string()
      .transform((value) => [...new Set(value.split(','))])
      .pipe(
        z
          .array(idSchema)
          .min(1)
          .max(MAX_USER_IDS, { error: `at most ${MAX_USER_IDS} ids, comma-separated` }),
      )
      .optional()
      .describe(`Only these users: up to ${MAX_USER_IDS} ids, comma-separated`),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();

/**
 * A tool call id as providers make them (`call_…`, `toolu_…`): one line of text. At most 100
 * characters, the longest path parameter the HTTP server routes (Fastify's `maxParamLength`).
 */
export const toolCallIdSchema = singleLineText(100).min(1, { error: 'must not be empty' });

/** Ten digits: far past the end of any stored result (an offset past its end reads nothing). */
const MAX_TOOL_RESULT_OFFSET = 9_999_999_999;

/** `GET /v1/admin/sessions/:id/tool-results/:toolCallId`: which characters of the stored result to read. */
export const adminReadToolResultQuery = z
  .object({
    offset: wholeNumberInRange(0, MAX_TOOL_RESULT_OFFSET, 'a number of characters from the start').optional(),
    limit: pageSizeSchema(MAX_TOOL_RESULT_PAGE_CHARACTERS).optional(),
    ...auditReasonQueryField,
  })
  .strict();
