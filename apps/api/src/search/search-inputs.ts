import { z } from 'zod';
import { MAX_SEARCH_QUERY_LENGTH } from '@agentdesk/api-contract';
import { MAX_PAGE_SIZE, searchTermsOf } from '@agentdesk/storage';
import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { rangeInOrder } from '../http/date-range';
import { cursorSchema, dateTimeSchema, pageSizeSchema, singleLineText } from '../http/inputs';

/** An exact-match filter value: one line, not empty (an empty filter is left out, not sent). */
const exactFilter = (maxLength: number) => singleLineText(maxLength).min(1, { error: 'must not be empty' });

/**
 * `GET /v1/admin/search/messages`: the words to find (every one must occur; the last, of three
 * letters or more, also finds longer words it begins), who owns the sessions, which role and model wrote the
 * message, when (`createdFrom` ≤ created < `createdBefore`), and the page.
 */
export const searchMessagesQuery = z
  .object({
    q: singleLineText(MAX_SEARCH_QUERY_LENGTH).refine((query) => searchTermsOf(query).length > 0, {
      error: 'must contain at least one word (letters or digits)',
    }),
    userId: exactFilter(64).optional(),
    role: z
      .enum(['system', 'user', 'assistant', 'tool'], { error: 'must be system, user, assistant or tool' })
      .optional(),
    model: exactFilter(200).optional(),
    createdFrom: dateTimeSchema.optional(),
    createdBefore: dateTimeSchema.optional(),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict()
  .superRefine(rangeInOrder('createdFrom', 'createdBefore'));
