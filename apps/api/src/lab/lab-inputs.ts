import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { z } from 'zod';
import {
  cursorSchema,
  jsonSchemaObject,
  multilineText,
  pageSizeSchema,
  singleLineText,
} from '../http/inputs';

/** Most targets one run may call at once. */
export const MAX_RUN_TARGETS = 12;
/** A target gets this long (retries included) unless the run says otherwise. */
export const DEFAULT_TARGET_TIMEOUT_MS = 60_000;
/** Largest page of runs: a run carries up to twelve results. */
export const MAX_RUN_PAGE_SIZE = 50;

const target = z
  .object({
    model: singleLineText(200).min(1, { error: 'must not be empty' }),
  })
  .strict();

/** `POST /v1/admin/structured-output/runs`: one schema and prompt, tried against every target. */
export const createRunBody = z
  .object({
    name: singleLineText(200).min(1, { error: 'must not be empty' }),
    schema: jsonSchemaObject,
    prompt: multilineText(100_000).min(1, { error: 'must not be empty' }),
    systemPrompt: multilineText(100_000).optional(),
    strict: z.boolean().default(true),
    targets: z
      .array(target)
      .min(1, { error: 'must name at least one target' })
      .max(MAX_RUN_TARGETS, { error: `must name at most ${MAX_RUN_TARGETS} targets` }),
    /** Per-target limit, retries included; a target that takes longer is recorded as timed out. */
    timeoutMs: z
      .number()
      .int()
      .min(1_000, { error: 'must be at least 1000' })
      .max(300_000, { error: 'must be at most 300000' })
      .default(DEFAULT_TARGET_TIMEOUT_MS),
  })
  .strict();

export type CreateRunBody = z.output<typeof createRunBody>;

/** `GET /v1/admin/structured-output/runs`. */
export const listRunsQuery = z
  .object({
    limit: pageSizeSchema(MAX_RUN_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();

/** `GET /v1/admin/structured-output/runs/:id`: the reason for reading another principal's run. */
export const readRunQuery = z.object({ ...auditReasonQueryField }).strict();
