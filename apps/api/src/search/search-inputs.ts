import { z } from 'zod';
import { MAX_SEARCH_QUERY_LENGTH } from '@agentdesk/api-contract';
import { MAX_PAGE_SIZE, searchTermsOf } from '@agentdesk/storage';
import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { cursorSchema, pageSizeSchema, singleLineText } from '../http/inputs';

/** `GET /v1/admin/search/messages`: the words to find (every one must occur) and the page. */
export const searchMessagesQuery = z
  .object({
    q: singleLineText(MAX_SEARCH_QUERY_LENGTH).refine((query) => searchTermsOf(query).length > 0, {
      error: 'must contain at least one word (letters or digits)',
    }),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();
