import { z } from 'zod';
import { costJsonFields } from './cost';

/** What the usage report can be grouped by. */
export const usageGroupings = ['model', 'provider', 'portal', 'user'] as const;
export type UsageGrouping = (typeof usageGroupings)[number];

/** The longest range one usage report may cover, in days (both ends included). */
export const MAX_USAGE_RANGE_DAYS = 366;
/** The range a report covers when none is given: the last 30 days, today included. */
export const DEFAULT_USAGE_RANGE_DAYS = 30;

const tokenSums = {
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  thinkingTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  /** Input + output + thinking (cached tokens are part of input). */
  totalTokens: z.number().int().nonnegative(),
  /** Model calls that reported usage. */
  modelCalls: z.number().int().nonnegative(),
  /** What the calls cost, with the count of calls without a price (their cost unknown, not 0). */
  ...costJsonFields,
};

/** One UTC day × one group key; `key` is null for calls without one (no portal, unknown provider). */
export const usageBucketJsonSchema = z.object({
  day: z.iso.date(),
  key: z.string().nullable(),
  ...tokenSums,
});
export type UsageBucketJson = z.infer<typeof usageBucketJsonSchema>;

/** Sums of one group key over the whole range. */
export const usageTotalJsonSchema = z.object({ key: z.string().nullable(), ...tokenSums });
export type UsageTotalJson = z.infer<typeof usageTotalJsonSchema>;

/** `GET /v1/admin/usage`: tokens per UTC day and group key, ordered by day then key, with totals. */
export const usageReportJsonSchema = z.object({
  groupBy: z.enum(usageGroupings),
  from: z.iso.date(),
  to: z.iso.date(),
  items: z.array(usageBucketJsonSchema),
  /** Per key over the range, largest total first. */
  totals: z.array(usageTotalJsonSchema),
});
export type UsageReportJson = z.infer<typeof usageReportJsonSchema>;
