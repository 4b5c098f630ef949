import {
  caseFromLabBodySchema,
  caseIdSchema,
  createSuiteBodySchema,
  importIntoSuiteBodySchema,
  importSuiteBodySchema,
  saveSuiteBodySchema,
  startRunBodySchema,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { cursorSchema, idSchema, pageSizeSchema, singleLineText, wholeNumberInRange } from '../http/inputs';

/** Largest page of suites or runs (a suite summary carries its last run). */
export const MAX_QA_PAGE_SIZE = 50;

/** `POST /v1/qa/suites`: a first version. */
export const createSuiteBody = createSuiteBodySchema;
export type CreateSuiteBody = z.output<typeof createSuiteBody>;

/** `PUT /v1/qa/suites/:id`: a new version, edited from `baseVersion`. */
export const saveSuiteBody = saveSuiteBodySchema;
export type SaveSuiteBody = z.output<typeof saveSuiteBody>;

/** `POST /v1/qa/suites/import`: a new suite from a file's text. */
export const importSuiteBody = importSuiteBodySchema;
export type ImportSuiteBody = z.output<typeof importSuiteBody>;

/** `POST /v1/qa/suites/:id/import`: a file's text as the suite's next version. */
export const importIntoSuiteBody = importIntoSuiteBodySchema;
export type ImportIntoSuiteBody = z.output<typeof importIntoSuiteBody>;

/** `POST /v1/qa/suites/:id/cases-from-lab`: a lab run's schema and prompt as a new case. */
export const casesFromLabBody = caseFromLabBodySchema.extend({ labRunId: idSchema }).strict();
export type CasesFromLabBody = z.output<typeof casesFromLabBody>;

/** `POST /v1/qa/suites/:id/runs`: which version, how many cells in flight per provider (the body may be left out). */
export const startRunBody = startRunBodySchema.optional();
export type StartRunBody = z.output<typeof startRunBody>;

/** `GET /v1/qa/suites`: pages, or the one suite of an exact name. */
export const listSuitesQuery = z
  .object({
    limit: pageSizeSchema(MAX_QA_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    name: singleLineText(200).min(1, { error: 'must not be empty' }).optional(),
  })
  .strict();

/** `GET /v1/qa/suites/:id/runs`. */
export const listRunsQuery = z
  .object({ limit: pageSizeSchema(MAX_QA_PAGE_SIZE).optional(), cursor: cursorSchema.optional() })
  .strict();

/** A version number in a path or query string. */
export const versionSchema = wholeNumberInRange(1, 999_999_999, 'a version number');

/** `GET /v1/qa/suites/:id/export`. */
export const exportQuery = z
  .object({
    format: z.enum(['yaml', 'json'], { error: 'must be yaml or json' }).default('yaml'),
    version: versionSchema.optional(),
  })
  .strict();

/** A target's position in its suite version, in a path (a suite has at most 50 targets). */
export const targetIndexSchema = wholeNumberInRange(0, 49, 'a target index');

/** A case id in a path. */
export const caseIdParamSchema = caseIdSchema;

/** What a run is compared with: the newest earlier finished run of its suite, or a run id. */
export const againstSchema = z.union([z.literal('latest'), idSchema], {
  error: 'must be "latest" or a run id',
});

/** `GET /v1/qa/runs/:id/compare` (and one cell's). */
export const compareQuery = z.object({ against: againstSchema.default('latest') }).strict();
export type Against = z.output<typeof againstSchema>;

/** Cancelling takes nothing: no body, `null` or `{}` (anything else is refused, naming the field). */
export const cancelRunBody = z.union([z.undefined(), z.null(), z.object({}).strict()]);
