import { z } from 'zod';
import { targetResultJsonSchema } from './lab';

// QA test suites (`/v1/qa/...`): the suite file format (YAML or JSON, documented in
// docs/QA-SUITES.md), and the shapes the API answers with for suites, runs, cells and comparisons.
// The API, the console and the `npm run suite` CLI all read these.

/** A case id: stable across versions, so two runs of a suite can be compared case by case. */
export const caseIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/,
    'a case id is 1–80 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** An RFC 6901 JSON pointer into the parsed output: "" is the whole output, "/items/0/sku" a member. */
export const jsonPointerSchema = z
  .string()
  .max(1_000)
  .regex(
    /^(\/([^~]|~[01])*)*$/,
    'a JSON pointer is "" or starts with "/" (escape "~" as "~0" and "/" as "~1")',
  );

const labelled = { label: z.string().min(1).max(200).optional() };

/** A `matches` pattern is refused when saved, not found broken in every cell of a run. */
function compiles(pattern: unknown, flags: unknown): boolean {
  // Unchecked input (the check runs beside the field's own problems): a wrong type is theirs.
  if (typeof pattern !== 'string') return true;
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags))) return true;
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

function minNotAboveMax(bounds: { min?: unknown; max?: unknown }): boolean {
  return typeof bounds.min !== 'number' || typeof bounds.max !== 'number' || bounds.min <= bounds.max;
}

/** What a case asserts of one target's answer, beyond "valid against the case's schema" (always checked). */
export const suiteAssertionSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('equals'), pointer: jsonPointerSchema, value: z.unknown(), ...labelled })
    .strict(),
  z
    .object({
      kind: z.literal('one-of'),
      pointer: jsonPointerSchema,
      values: z.array(z.unknown()).min(1).max(1_000),
      ...labelled,
    })
    .strict(),
  z
    .object({
      kind: z.literal('matches'),
      pointer: jsonPointerSchema,
      pattern: z.string().min(1).max(2_000),
      flags: z
        .string()
        .regex(/^[imsu]*$/, 'regex flags are any of i, m, s, u')
        .optional(),
      ...labelled,
    })
    .strict()
    .refine((assertion) => compiles(assertion.pattern, assertion.flags), {
      message: 'not a valid JavaScript regular expression',
      path: ['pattern'],
      when: alwaysCheck,
    }),
  z
    .object({
      kind: z.literal('range'),
      pointer: jsonPointerSchema,
      min: z.number().optional(),
      max: z.number().optional(),
      ...labelled,
    })
    .strict()
    .refine(minNotAboveMax, { message: '"min" is above "max"', path: ['min'], when: alwaysCheck }),
  z
    .object({
      kind: z.literal('length'),
      pointer: jsonPointerSchema,
      min: z.number().int().nonnegative().optional(),
      max: z.number().int().nonnegative().optional(),
      ...labelled,
    })
    .strict()
    .refine(minNotAboveMax, { message: '"min" is above "max"', path: ['min'], when: alwaysCheck }),
  z.object({ kind: z.literal('latency'), maxMs: z.number().int().positive(), ...labelled }).strict(),
  z.object({ kind: z.literal('cost'), maxUsd: z.number().positive(), ...labelled }).strict(),
  /**
   * JavaScript run in the sandbox (never inside the API): the body of a function of `output`
   * (the parsed JSON) that returns true / false, or `{ pass, message }`; a throw fails the assertion.
   */
  z.object({ kind: z.literal('javascript'), code: z.string().min(1).max(20_000), ...labelled }).strict(),
]);
export type SuiteAssertion = z.infer<typeof suiteAssertionSchema>;
export type SuiteAssertionKind = SuiteAssertion['kind'] | 'schema';
/** Every assertion kind, `schema` (valid against the case's schema) first: it is always checked. */
export const suiteAssertionKinds = [
  'schema',
  'equals',
  'one-of',
  'matches',
  'range',
  'length',
  'latency',
  'cost',
  'javascript',
] as const satisfies readonly SuiteAssertionKind[];

export const suiteMessageSchema = z
  .object({ role: z.enum(['system', 'user', 'assistant']), content: z.string().min(1).max(200_000) })
  .strict();

/** One case: what is sent (a prompt, or messages), the JSON Schema asked for, and what must hold. */
export const suiteCaseSchema = z
  .object({
    id: caseIdSchema,
    description: z.string().max(2_000).optional(),
    systemPrompt: z.string().max(200_000).optional(),
    prompt: z.string().min(1).max(200_000).optional(),
    messages: z.array(suiteMessageSchema).min(1).max(200).optional(),
    schema: z.record(z.string(), z.unknown()),
    assertions: z.array(suiteAssertionSchema).max(100).default([]),
  })
  .strict()
  .superRefine(
    (c, context) => {
      if (!isPlainRecord(c) || (c.prompt === undefined) !== (c.messages === undefined)) return;
      context.addIssue({
        code: 'custom',
        path: ['prompt'],
        message: 'a case has either "prompt" or "messages", not both and not neither',
      });
    },
    // Beside the case's other problems, not after they are fixed (docs/QA-SUITES.md: every problem at once).
    { when: alwaysCheck },
  );
export type SuiteCase = z.infer<typeof suiteCaseSchema>;

/** One model a suite runs on, with its call settings. */
export const suiteTargetSchema = z
  .object({
    model: z.string().min(1).max(200),
    /** Shown in tables; defaults to the model. Unique within a suite. */
    label: z.string().min(1).max(100).optional(),
    strict: z.boolean().default(true),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().max(1_000_000).optional(),
  })
  .strict();
export type SuiteTarget = z.infer<typeof suiteTargetSchema>;

/** A suite definition: the file format, and what each version stores. */
export const suiteDefinitionSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(5_000).optional(),
    targets: z.array(suiteTargetSchema).min(1).max(50),
    /** Per cell: the model call's limit, retries included. */
    timeoutMs: z.number().int().min(1_000).max(600_000).default(60_000),
    cases: z.array(suiteCaseSchema).min(1).max(5_000),
  })
  .strict()
  .superRefine(
    (suite, context) => {
      // With `alwaysCheck` this also runs on a file with other problems: read it as unchecked input.
      const seen = new Set<string>();
      entriesOf(suite, 'cases').forEach((c, index) => {
        if (typeof c['id'] !== 'string') return;
        if (seen.has(c['id']))
          context.addIssue({
            code: 'custom',
            path: ['cases', index, 'id'],
            message: `case id "${c['id']}" is used twice`,
          });
        seen.add(c['id']);
      });
      const labels = new Set<string>();
      entriesOf(suite, 'targets').forEach((target, index) => {
        const label = target['label'] ?? target['model'];
        if (typeof label !== 'string') return;
        if (labels.has(label))
          context.addIssue({
            code: 'custom',
            path: ['targets', index],
            message: `target "${label}" is listed twice (give one a "label")`,
          });
        labels.add(label);
      });
    },
    { when: alwaysCheck },
  );

/** A refinement that runs beside the other problems of its value (zod skips it after one by default). */
function alwaysCheck(): boolean {
  return true;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object entries of an unchecked list field (others are the schema's problem, reported apart). */
function entriesOf(value: unknown, field: string): Record<string, unknown>[] {
  const list = isPlainRecord(value) ? value[field] : undefined;
  return Array.isArray(list) ? list.map((entry: unknown) => (isPlainRecord(entry) ? entry : {})) : [];
}
export type SuiteDefinition = z.infer<typeof suiteDefinitionSchema>;
export type SuiteDefinitionInput = z.input<typeof suiteDefinitionSchema>;

/** The label a target shows under: its own, else its model. */
export function targetLabel(target: Pick<SuiteTarget, 'model' | 'label'>): string {
  return target.label ?? target.model;
}

// ---- API answers -----------------------------------------------------------------------------

export const suiteSummaryJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  latestVersion: z.number().int().positive(),
  caseCount: z.number().int().nonnegative(),
  targetCount: z.number().int().nonnegative(),
  createdBy: z.string(),
  createdByName: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The newest run of any version, in short. */
  lastRun: z
    .object({ id: z.string(), status: z.string(), passRate: z.number().nullable(), createdAt: z.string() })
    .nullable(),
});
export type SuiteSummaryJson = z.infer<typeof suiteSummaryJsonSchema>;

/** One version of a suite: its full definition. */
export const suiteVersionJsonSchema = z.object({
  suiteId: z.string(),
  version: z.number().int().positive(),
  definition: suiteDefinitionSchema,
  createdBy: z.string(),
  createdByName: z.string().nullable().optional(),
  createdAt: z.string(),
  /** What changed from the previous version, written by whoever saved it. */
  note: z.string().nullable(),
});
export type SuiteVersionJson = z.infer<typeof suiteVersionJsonSchema>;

export const suiteJsonSchema = suiteSummaryJsonSchema.extend({
  current: suiteVersionJsonSchema,
  versions: z.array(
    z.object({
      version: z.number(),
      createdBy: z.string(),
      createdAt: z.string(),
      note: z.string().nullable(),
    }),
  ),
});
export type SuiteJson = z.infer<typeof suiteJsonSchema>;

/** A save: the new definition, and the version it was edited from (a stale one answers 409). */
export const saveSuiteBodySchema = z
  .object({
    definition: suiteDefinitionSchema,
    baseVersion: z.number().int().positive(),
    note: z.string().max(2_000).optional(),
  })
  .strict();

/** An import: a suite file's text in one of the documented formats. */
export const importSuiteBodySchema = z
  .object({ format: z.enum(['yaml', 'json', 'promptfoo']), text: z.string().min(1).max(10_000_000) })
  .strict();

/** What an import could not carry over (promptfoo files): where, and why. */
export const unsupportedPartJsonSchema = z.object({ path: z.string(), reason: z.string() });
export type UnsupportedPartJson = z.infer<typeof unsupportedPartJsonSchema>;

export const cellStatuses = ['pending', 'running', 'passed', 'failed', 'error', 'cancelled'] as const;
export type CellStatus = (typeof cellStatuses)[number];
export const runStatuses = ['running', 'completed', 'cancelled'] as const;
export type SuiteRunStatus = (typeof runStatuses)[number];

export const assertionOutcomeJsonSchema = z.object({
  kind: z.enum(suiteAssertionKinds),
  label: z.string(),
  /** null: the assertion could not be judged (no output, the sandbox refused, an internal error). */
  passed: z.boolean().nullable(),
  message: z.string().nullable(),
  durationMs: z.number().nullable().optional(),
});
export type AssertionOutcomeJson = z.infer<typeof assertionOutcomeJsonSchema>;

/** One cell in a matrix: small, so a 1,000-cell run's matrix is one quick read. */
export const cellSummaryJsonSchema = z.object({
  caseId: z.string(),
  caseIndex: z.number().int(),
  targetIndex: z.number().int(),
  status: z.enum(cellStatuses),
  latencyMs: z.number().nullable(),
  costMicros: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  /** Kinds of the assertions that failed (empty when passed); why the cell errored, if it did. */
  failedKinds: z.array(z.enum(suiteAssertionKinds)),
  reason: z.string().nullable(),
});
export type CellSummaryJson = z.infer<typeof cellSummaryJsonSchema>;

/** One cell whole: everything the lab keeps for a target, plus each assertion's outcome. */
export const cellJsonSchema = cellSummaryJsonSchema.extend({
  runId: z.string(),
  target: suiteTargetSchema,
  result: targetResultJsonSchema.nullable(),
  assertions: z.array(assertionOutcomeJsonSchema),
  attempts: z.number().int(),
  finishedAt: z.string().nullable(),
});
export type CellJson = z.infer<typeof cellJsonSchema>;

export const runCountsJsonSchema = z.object({
  total: z.number().int(),
  done: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  errored: z.number().int(),
  cancelled: z.number().int(),
});
export type RunCountsJson = z.infer<typeof runCountsJsonSchema>;

/** Per target (or per assertion kind): how many judged cells passed, and what they cost. */
export const passRateJsonSchema = z.object({
  key: z.string(),
  passed: z.number().int(),
  judged: z.number().int(),
  /** passed / judged, null when nothing was judged. */
  rate: z.number().nullable(),
  costMicros: z.number().nullable(),
  latencyP50Ms: z.number().nullable(),
  latencyP95Ms: z.number().nullable(),
});
export type PassRateJson = z.infer<typeof passRateJsonSchema>;

export const suiteRunJsonSchema = z.object({
  id: z.string(),
  suiteId: z.string(),
  suiteName: z.string(),
  suiteVersion: z.number().int(),
  status: z.enum(runStatuses),
  createdBy: z.string(),
  createdByName: z.string().nullable().optional(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: runCountsJsonSchema,
  targets: z.array(suiteTargetSchema),
  cases: z.array(z.object({ id: z.string(), description: z.string().nullable() })),
  cells: z.array(cellSummaryJsonSchema),
  byTarget: z.array(passRateJsonSchema),
  byAssertionKind: z.array(passRateJsonSchema),
});
export type SuiteRunJson = z.infer<typeof suiteRunJsonSchema>;

export const suiteRunSummaryJsonSchema = suiteRunJsonSchema.omit({
  cells: true,
  cases: true,
  byAssertionKind: true,
});
export type SuiteRunSummaryJson = z.infer<typeof suiteRunSummaryJsonSchema>;

export const startRunBodySchema = z
  .object({
    /** Which version to run; the latest when absent. */
    version: z.number().int().positive().optional(),
    /** Cells in flight per provider. */
    concurrency: z.number().int().min(1).max(64).optional(),
  })
  .strict();

/** A progress event of `GET /v1/qa/runs/:id/events` (SSE `data:` lines, event name = `type`). */
export const runProgressEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), run: suiteRunJsonSchema }),
  z.object({ type: z.literal('cells'), counts: runCountsJsonSchema, cells: z.array(cellSummaryJsonSchema) }),
  z.object({ type: z.literal('finished'), status: z.enum(runStatuses), counts: runCountsJsonSchema }),
]);
export type RunProgressEvent = z.infer<typeof runProgressEventSchema>;

export const caseChanges = [
  'regression',
  'fix',
  'unchanged-pass',
  'unchanged-fail',
  'new',
  'removed',
  'not-judged',
] as const;
export type CaseChange = (typeof caseChanges)[number];

/** A run against an earlier run of the same suite, cell by cell (matched by case id and target label). */
export const runComparisonJsonSchema = z.object({
  runId: z.string(),
  againstRunId: z.string(),
  counts: z.record(z.enum(caseChanges), z.number().int()),
  cells: z.array(
    z.object({
      caseId: z.string(),
      target: z.string(),
      change: z.enum(caseChanges),
      before: z.enum(cellStatuses).nullable(),
      after: z.enum(cellStatuses).nullable(),
    }),
  ),
  byTarget: z.array(
    z.object({ target: z.string(), before: z.number().nullable(), after: z.number().nullable() }),
  ),
});
export type RunComparisonJson = z.infer<typeof runComparisonJsonSchema>;

/** One case's two outputs for a target: a JSON diff as pointer-level operations. */
export const jsonDiffEntrySchema = z.object({
  pointer: z.string(),
  op: z.enum(['added', 'removed', 'changed']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type JsonDiffEntry = z.infer<typeof jsonDiffEntrySchema>;

// ---- Bodies and answers of the remaining routes (added with the API) -------------------------

/** `POST /v1/qa/suites`: a new suite, its definition as version 1. */
export const createSuiteBodySchema = z
  .object({ definition: suiteDefinitionSchema, note: z.string().max(2_000).optional() })
  .strict();

/** `POST /v1/qa/suites/:id/import`: a file's text as the suite's next version, edited from `baseVersion`. */
export const importIntoSuiteBodySchema = importSuiteBodySchema
  .extend({ baseVersion: z.number().int().positive(), note: z.string().max(2_000).optional() })
  .strict();

/** `POST /v1/qa/suites/:id/cases-from-lab`: a lab run's schema and prompt as a new case (a new version). */
export const caseFromLabBodySchema = z
  .object({
    labRunId: z.string(),
    caseId: caseIdSchema,
    baseVersion: z.number().int().positive(),
    note: z.string().max(2_000).optional(),
  })
  .strict();

/** What an import answers: the suite, and what the file held that a suite cannot (promptfoo). */
export const importedSuiteJsonSchema = z.object({
  suite: suiteJsonSchema,
  unsupported: z.array(unsupportedPartJsonSchema),
});
export type ImportedSuiteJson = z.infer<typeof importedSuiteJsonSchema>;

/** `GET /v1/qa/runs/:id/compare/:caseId/:targetIndex`: one case on one target in both runs, and the JSON diff of the outputs. */
export const cellComparisonJsonSchema = z.object({
  runId: z.string(),
  againstRunId: z.string(),
  before: cellJsonSchema.nullable(),
  after: cellJsonSchema.nullable(),
  diff: z.array(jsonDiffEntrySchema),
});
export type CellComparisonJson = z.infer<typeof cellComparisonJsonSchema>;
