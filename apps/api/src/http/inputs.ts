import { z } from 'zod';
import { isId, type JsonObject } from '@agentdesk/storage';

// PostgreSQL refuses NUL in text and jsonb: letting one through would be a 500, so it is a 400 here.
// eslint-disable-next-line no-control-regex
const lineControlCharacters = /[\u0000-\u001f\u007f]/;
const nulCharacter = '\u0000';

/** One line of text (labels, names, search terms): no control characters. */
export function singleLineText(maximumLength: number) {
  return z
    .string()
    .max(maximumLength, { error: `must be at most ${maximumLength} characters` })
    .refine((value) => !lineControlCharacters.test(value), {
      error: 'must not contain control characters or line breaks',
    });
}

/** Free text (system prompts): any characters except NUL. */
export function multilineText(maximumLength: number) {
  return z
    .string()
    .max(maximumLength, { error: `must be at most ${maximumLength} characters` })
    .refine((value) => !value.includes(nulCharacter), { error: 'must not contain NUL characters' });
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

/** A page size between 1 and `maximum`, sent as a query string. Larger sizes are refused, not capped silently. */
export function pageSizeSchema(maximum: number) {
  return z
    .string()
    .regex(/^\d{1,6}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: 'must be at least 1' })
        .max(maximum, { error: `must be at most ${maximum}` }),
    );
}

/** The opaque `nextCursor` of the previous page. */
export const cursorSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(512, { error: 'must be at most 512 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be a nextCursor returned by this API' });

/** `true`/`false` in a query string. */
export const queryBooleanSchema = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

/** Limits of user-supplied JSON objects (session metadata). */
export const jsonObjectLimits = { maximumDepth: 16, maximumNodes: 5_000, maximumKeyLength: 200 } as const;

/**
 * A JSON object (session metadata) with bounded depth and size, no NUL anywhere (PostgreSQL's
 * jsonb refuses `\u0000`), and only finite numbers. Walked iteratively: a deeply nested body
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
      if (value.includes(nulCharacter)) return 'strings must not contain NUL characters';
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
        if (key.includes(nulCharacter)) return 'keys must not contain NUL characters';
        stack.push({ value: item, depth: depth + 1 });
      }
      continue;
    }
    return 'must contain only JSON values';
  }
  return undefined;
}
