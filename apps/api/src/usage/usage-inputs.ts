import { z } from 'zod';
import { MAX_USAGE_RANGE_DAYS, usageGroupings } from '@agentdesk/api-contract';
import { rangeInOrder } from '../http/date-range';
import { auditReasonQueryField } from '../shared/audit/audit-reason';

const MILLISECONDS_PER_DAY = 86_400_000;

/** A calendar date (UTC) as `YYYY-MM-DD`, kept as text so the audit record shows what was asked. */
const daySchema = z.iso.date({ error: 'must be a date as YYYY-MM-DD (UTC)' });

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MILLISECONDS_PER_DAY + 1;
}

/** `GET /v1/admin/usage`: the grouping and an optional UTC date range (defaults: the last 30 days). */
export const usageReportQuery = z
  .object({
    groupBy: z.enum(usageGroupings, { error: `must be one of ${usageGroupings.join(', ')}` }),
    from: daySchema.optional(),
    to: daySchema.optional(),
    ...auditReasonQueryField,
  })
  .strict()
  .superRefine(rangeInOrder('from', 'to'))
  .superRefine((query, context) => {
    if (query.from === undefined || query.to === undefined) return;
    const days = daysBetween(query.from, query.to);
    if (days > MAX_USAGE_RANGE_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range covers ${days} days; at most ${MAX_USAGE_RANGE_DAYS} are allowed`,
      });
    }
  });
export type UsageReportQuery = z.output<typeof usageReportQuery>;
