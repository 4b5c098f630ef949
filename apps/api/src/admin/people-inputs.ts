import { z } from 'zod';
import { DEFAULT_USAGE_RANGE_DAYS, MAX_USAGE_RANGE_DAYS, personRoles } from '@agentdesk/api-contract';
import { rangeInOrder } from '../http/date-range';
import { singleLineText } from '../http/inputs';
import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { adminListUsersQuery } from './admin-inputs';

const MILLISECONDS_PER_DAY = 86_400_000;
const daySchema = z.iso.date({ error: 'must be a date as YYYY-MM-DD (UTC)' });

/** The range of UTC days a person's tokens and cost are summed over, both included. */
const usageRangeFields = {
  from: daySchema.optional().describe('First UTC day of the usage columns (default: 30 days before `to`)'),
  to: daySchema.optional().describe('Last UTC day of the usage columns (default: today)'),
};

function usageRangeWithinLimit(query: { from?: string; to?: string }, context: z.RefinementCtx): void {
  if (query.from === undefined || query.to === undefined) return;
  const days =
    (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / MILLISECONDS_PER_DAY + 1;
  if (days > MAX_USAGE_RANGE_DAYS)
    context.addIssue({
      code: 'custom',
      path: ['to'],
      message: `the range covers ${days} days; at most ${MAX_USAGE_RANGE_DAYS} are allowed`,
    });
}

/** `GET /v1/admin/users`: the directory's filters (prefix search, portal, role), the usage range, paging. */
export const adminPeopleQuery = z
  .object({
    ...adminListUsersQuery.shape,
    q: singleLineText(200)
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe('Start of a name, email or external id (case-insensitive)'),
    role: z.enum(personRoles).optional(),
    ...usageRangeFields,
  })
  .strict()
  .superRefine(rangeInOrder('from', 'to'))
  .superRefine(usageRangeWithinLimit);

/** `GET /v1/admin/users/:id`: the usage range and the reason for reading. */
export const adminPersonQuery = z
  .object({ ...usageRangeFields, ...auditReasonQueryField })
  .strict()
  .superRefine(rangeInOrder('from', 'to'))
  .superRefine(usageRangeWithinLimit);

/** The usage range asked for, or the default: the last 30 days up to today (UTC). */
export function usageDaysOf(
  query: { from?: string; to?: string },
  now: Date,
): { fromDay: string; toDay: string } {
  const toDay = query.to ?? now.toISOString().slice(0, 10);
  const fromDay =
    query.from ??
    new Date(Date.parse(`${toDay}T00:00:00Z`) - (DEFAULT_USAGE_RANGE_DAYS - 1) * MILLISECONDS_PER_DAY)
      .toISOString()
      .slice(0, 10);
  return { fromDay, toDay };
}
