import { z } from 'zod';
import { MAX_PAGE_SIZE } from '@agentdesk/storage';
import { rangeInOrder } from '../../http/date-range';
import { cursorSchema, dateTimeSchema, pageSizeSchema, singleLineText } from '../../http/inputs';

/** Filters shared by the owner's session list (`GET /v1/sessions`) and the admin list (`GET /v1/admin/sessions`). */
export const sessionFilters = {
  status: z.enum(['open', 'closed'], { error: 'must be open or closed' }).optional(),
  createdFrom: dateTimeSchema.optional(),
  createdBefore: dateTimeSchema.optional(),
  label: singleLineText(200).optional(),
  limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
  cursor: cursorSchema.optional(),
};

/** Refuses a creation range the wrong way round (a `superRefine` on a query holding `sessionFilters`). */
export const sessionCreatedRangeInOrder = rangeInOrder('createdFrom', 'createdBefore');
