import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../types/json-schema';
import { lowerJsonSchema } from './lower-json-schema';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, schemaLimitProblem } from './schema-limits';
import { SchemaLoweringError } from './schema-lowering-error';

/** An object schema whose JSON is exactly `depth` containers deep (`items` wrappers; the leaf object counts). */
function nestedItems(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let level = 1; level < depth; level += 1) schema = { type: 'array', items: schema };
  return schema;
}

/** The same depth through `properties` (two JSON levels per object level) and `anyOf` arrays. */
function nestedProperties(depth: number): unknown {
  let schema: unknown = { type: 'string' };
  let level = 1;
  while (level + 2 <= depth) {
    schema = level % 4 === 1 ? { anyOf: [schema] } : { type: 'object', properties: { child: schema } };
    level += 2;
  }
  return schema;
}

describe('schema limits', () => {
  it('accepts exactly MAX_SCHEMA_DEPTH levels and refuses one more, whatever keyword nests', () => {
    expect(schemaLimitProblem(nestedItems(MAX_SCHEMA_DEPTH))).toBeUndefined();
    expect(schemaLimitProblem(nestedItems(MAX_SCHEMA_DEPTH + 1))).toContain(
      `may be nested at most ${MAX_SCHEMA_DEPTH} levels`,
    );
    expect(schemaLimitProblem(nestedProperties(MAX_SCHEMA_DEPTH + 2))).toContain('MAX_SCHEMA_DEPTH');
    expect(schemaLimitProblem(nestedProperties(MAX_SCHEMA_DEPTH - 2))).toBeUndefined();
  });

  it('accepts MAX_SCHEMA_NODES values and refuses one more', () => {
    const wide = (count: number) => ({
      type: 'string',
      enum: Array.from({ length: count - 3 }, (_, index) => index),
    });
    // root object + "string" + the enum array + its items
    expect(schemaLimitProblem(wide(MAX_SCHEMA_NODES))).toBeUndefined();
    expect(schemaLimitProblem(wide(MAX_SCHEMA_NODES + 1))).toContain(`at most ${MAX_SCHEMA_NODES}`);
  });

  it('measures a schema nested 200,000 levels deep without overflowing the stack', () => {
    expect(schemaLimitProblem(nestedItems(200_000))).toContain('MAX_SCHEMA_DEPTH');
  });

  it('agrees with the recursive definition of depth on any JSON value', () => {
    const depthOf = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 8 }), (value, wrapperGroups) => {
        let wrapped: unknown = value;
        for (let level = 0; level < wrapperGroups * 8; level += 1) wrapped = [wrapped];
        const tooDeep = depthOf(wrapped) > MAX_SCHEMA_DEPTH;
        expect(schemaLimitProblem(wrapped)?.includes('MAX_SCHEMA_DEPTH') ?? false).toBe(tooDeep);
      }),
    );
  });

  it.each(['openai-strict', 'anthropic', 'gemini'] as const)(
    'lowering for %s refuses a too-deep schema with a typed error instead of overflowing',
    (target) => {
      const deep = { type: 'object', properties: { a: nestedItems(5_000) }, required: ['a'] } as JsonSchema;
      expect(() => lowerJsonSchema(deep, target)).toThrow(SchemaLoweringError);
      expect(() => lowerJsonSchema(deep, target)).toThrow(
        expect.objectContaining({ code: 'schema-too-large' }),
      );
    },
  );
});
