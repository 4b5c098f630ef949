import { z } from 'zod';

/**
 * Parsers of environment variables shared by every part of the one config: a variable is text, so
 * each parser says in its error what the text must look like. Absent variables stay `undefined`
 * here; the caller decides the default.
 */

/** A whole number within [minimum, maximum], written in decimal digits. */
export const wholeNumberVariable = (minimum: number, maximum: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(minimum, { error: `must be at least ${minimum}` })
        .max(maximum, { error: `must be at most ${maximum}` }),
    )
    .optional();

/** `true`/`1` or `false`/`0`. */
export const flagVariable = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' })
  .optional()
  .transform((value) => (value === undefined ? undefined : value === 'true' || value === '1'));
