import { schemaLimitProblem, validateJson } from '@agentdesk/providers';
import { z } from 'zod';
import { isId, MAX_CURSOR_LENGTH, unstorableTextProblem, type JsonObject } from '@agentdesk/storage';

// eslint-disable-next-line no-control-regex
const lineControlCharacters = /[\u0000-\u001f\u007f]/;

// PostgreSQL refuses NUL and unpaired surrogates (the pipe checks every input first; schemas used
// elsewhere keep the same rule and the same words).
function refineStorable(value: string, context: z.core.$RefinementCtx<string>): void {
  const problem = unstorableTextProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
}

/** One line of text (labels, names, search terms): no control characters. */
export function singleLineText(maximumLength: number) {
  return z
    .string()
    .max(maximumLength, { error: `must be at most ${maximumLength} characters` })
    .superRefine(refineStorable)
    .refine((value) => !lineControlCharacters.test(value), {
      error: 'must not contain control characters or line breaks',
    });
}

/** Free text (system prompts): any characters except NUL and unpaired surrogates. */
export function multilineText(maximumLength: number) {
  return z
    .string()
    .max(maximumLength, { error: `must be at most ${maximumLength} characters` })
    .superRefine(refineStorable);
}

/** An id as this API returns it (UUIDv7 layout). A malformed id is a 400; a well-formed unknown one a 404. */
export const idSchema = z
  .string()
  .refine(isId, { error: 'must be an id as returned by this API (UUID layout)' });

/** An ISO 8601 date-time with a time zone (`2026-01-31T12:00:00Z`), as a `Date`. */
export const dateTimeSchema = z.iso
  .datetime({
    offset: true,
    error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z',
  })
  .transform((value) => new Date(value));

/**
 * A whole number in decimal digits within [minimum, maximum], sent as text (a query or path part).
 * Every refusal names the range — of any length of digits too: "99999999999999999999" is a whole
 * number, just not an allowed one, and saying "must be a whole number" to it sent people looking
 * for the wrong mistake.
 */
export function wholeNumberInRange(minimum: number, maximum: number, what = 'a whole number') {
  const range = `must be ${what} from ${minimum} to ${maximum}`;
  return (
    z
      .string()
      .regex(/^\d+$/, { error: range })
      // Hundreds of digits read as Infinity, which zod refuses in words of its own: any number past
      // every maximum is simply too large.
      .transform((digits) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER))
      .pipe(z.number().min(minimum, { error: range }).max(maximum, { error: range }))
  );
}

/** A page size between 1 and `maximum`, sent as a query string. Larger sizes are refused, not capped silently. */
export function pageSizeSchema(maximum: number) {
  return wholeNumberInRange(1, maximum);
}

/** The opaque `nextCursor` of the previous page. */
export const cursorSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(MAX_CURSOR_LENGTH, { error: `must be at most ${MAX_CURSOR_LENGTH} characters` })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be a nextCursor returned by this API' });

/** `true`/`false` in a query string. */
export const queryBooleanSchema = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

/** Limits of user-supplied JSON objects (session metadata). */
export const jsonObjectLimits = { maximumDepth: 16, maximumNodes: 5_000, maximumKeyLength: 200 } as const;

/**
 * A JSON object (session metadata) with bounded depth and size, no NUL or unpaired surrogate
 * anywhere (PostgreSQL's jsonb refuses both), and only finite numbers. Walked iteratively: a deeply nested body
 * cannot overflow the stack.
 */
export const jsonObjectSchema = z
  .custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: 'must be a JSON object',
  })
  .superRefine((value, context) => {
    const problem = jsonProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });

/**
 * Refinement for every JSON Schema a request carries (response formats, tool parameters, lab
 * schemas): within the providers' MAX_SCHEMA_DEPTH and MAX_SCHEMA_NODES, measured iteratively, so
 * a schema nested thousands of levels is a 400 naming the limit, never a stack overflow.
 */
export function refineSchemaLimits(value: unknown, context: z.core.$RefinementCtx): void {
  const problem = schemaLimitProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
}

/**
 * A JSON Schema the API itself validates answers against (response formats, lab schemas): a JSON
 * object within the schema limits that Ajv can compile. One that cannot compile would fail every
 * answer the same way, so it is refused before anything is stored or any model is called.
 */
export const jsonSchemaObject = z
  .custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: 'must be a JSON Schema (a JSON object)',
  })
  .superRefine((value, context) => {
    const problem =
      schemaLimitProblem(value) ??
      validateJson(value, null).errors.find((issue) => issue.keyword === 'schema')?.message;
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });

function jsonProblem(root: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    nodes += 1;
    if (nodes > jsonObjectLimits.maximumNodes)
      return `must have at most ${jsonObjectLimits.maximumNodes} values`;
    if (depth > jsonObjectLimits.maximumDepth)
      return `must be nested at most ${jsonObjectLimits.maximumDepth} levels deep`;
    if (value === null || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'numbers must be finite';
      continue;
    }
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem !== undefined) return `a string ${problem}`;
      continue;
    }
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.length > jsonObjectLimits.maximumKeyLength)
          return `keys must be at most ${jsonObjectLimits.maximumKeyLength} characters`;
        const problem = unstorableTextProblem(key);
        if (problem !== undefined) return `the key ${JSON.stringify(key)} ${problem}`;
        stack.push({ value: item, depth: depth + 1 });
      }
      continue;
    }
    return 'must contain only JSON values';
  }
  return undefined;
}
