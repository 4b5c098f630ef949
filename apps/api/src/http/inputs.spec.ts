import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonObjectLimits, jsonObjectSchema, pageSizeSchema, singleLineText } from './inputs';
import { describeIssues, ZodValidationPipe } from './zod-validation.pipe';

describe('input schemas', () => {
  it('bounds JSON objects in depth, size and content, without recursion', () => {
    expect(jsonObjectSchema.safeParse({ a: [1, { b: 'c' }], d: null }).success).toBe(true);
    let deep: unknown = 'leaf';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    for (const bad of [
      [],
      'x',
      null,
      { deep },
      { text: 'a\u0000b' },
      { ['k\u0000']: 1 },
      { n: Number.POSITIVE_INFINITY },
      { ['k'.repeat(jsonObjectLimits.maximumKeyLength + 1)]: 1 },
    ]) {
      expect(jsonObjectSchema.safeParse(bad).success).toBe(false);
    }
    expect(
      jsonObjectSchema.safeParse({ many: Array.from({ length: jsonObjectLimits.maximumNodes }, () => 1) })
        .success,
    ).toBe(false);
  });

  it('refuses control characters in single-line text and out-of-range page sizes', () => {
    const label = singleLineText(5);
    expect(label.safeParse('hello').success).toBe(true);
    for (const bad of ['a\u0000', 'a\nb', 'toolong']) expect(label.safeParse(bad).success).toBe(false);
    const size = pageSizeSchema(100);
    expect(size.parse('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'x', '', '0x10'])
      expect(size.safeParse(bad).success, bad).toBe(false);
  });

  it('names each refused field, and privileged fields specially', () => {
    const schema = z.object({ label: z.string().max(3) }).strict();
    const result = schema.safeParse({ label: 'long', userId: 'u', colour: 'red' });
    expect(result.success).toBe(false);
    const message = describeIssues(result.error?.issues ?? [], 'body');
    expect(message).toContain('body.label: Too big');
    expect(message).toContain('body.userId: may not be set by the client');
    expect(message).toContain('body.colour: unknown field (not accepted here)');
    expect(() => new ZodValidationPipe(schema, 'body').transform({ role: 'admin' })).toThrow(
      'body.role: may not be set by the client',
    );
  });
});
