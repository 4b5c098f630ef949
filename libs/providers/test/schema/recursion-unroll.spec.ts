import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import { DEFAULT_RECURSION_DEPTH } from '../../src/schema/recursion-unroll';
import type { SchemaChange } from '../../src/schema/schema-change';
import { SchemaLoweringError } from '../../src/schema/schema-lowering-error';
import { validateJson } from '../../src/schema/validate-json';
import { geminiAsJsonSchema } from './gemini-as-json-schema';

/** A tree through the root: every node has a name and may have children. */
const treeSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  required: ['name'],
};

/** A tree `levels` nodes deep along its first branch. */
function treeOf(levels: number): Record<string, unknown> {
  return levels === 1
    ? { name: 'leaf', children: [] }
    : { name: `n${levels}`, children: [treeOf(levels - 1)] };
}

const unrollChanges = (changes: readonly SchemaChange[]) =>
  changes.filter((change) => change.action === 'recursion-unrolled');

function loweringError(run: () => unknown): SchemaLoweringError {
  try {
    run();
  } catch (error) {
    if (error instanceof SchemaLoweringError) return error;
    throw error;
  }
  throw new Error('expected a SchemaLoweringError');
}

describe('recursive schemas for targets without recursion', () => {
  it('gemini: a tree through "#" is unrolled to the given depth; the deepest children array must be empty', () => {
    const lowered = lowerJsonSchema(treeSchema, 'gemini', { recursionDepth: 2 });
    const deepest = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { type: 'string' }, maxItems: 0 },
      },
      required: ['name'],
      propertyOrdering: ['name', 'children'],
    };
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: deepest } },
      required: ['name'],
      propertyOrdering: ['name', 'children'],
    });
    expect(JSON.stringify(lowered.schema)).not.toContain('$ref');
  });

  it('reports where the recursion was unrolled, to what depth, and where it is cut', () => {
    const changes = unrollChanges(lowerJsonSchema(treeSchema, 'gemini', { recursionDepth: 4 }).changes);
    expect(changes.map(({ pointer, keyword }) => [pointer, keyword])).toEqual([
      ['/properties/children', 'items'],
      ['/properties/children/items', '$ref'],
    ]);
    const [cut, unroll] = changes;
    expect(unroll?.detail).toMatch(/up to 4 levels deep/);
    expect(cut?.detail).toMatch(/unrolled 4 levels deep/);
    expect(cut?.detail).toMatch(/must be empty/);
    expect(cut?.detail).toMatch(/deeper levels are cut/);
  });

  it.each(['gemini', 'anthropic'] as const)(
    '%s: the default depth is 3; trees up to it validate against the lowered schema, deeper ones only against the original',
    (target) => {
      expect(DEFAULT_RECURSION_DEPTH).toBe(3);
      const lowered = lowerJsonSchema(treeSchema, target);
      const asJsonSchema = geminiAsJsonSchema(lowered.schema) as Record<string, unknown>;
      for (const levels of [1, 2, 3]) {
        expect(validateJson(asJsonSchema, treeOf(levels)).valid, `${levels} levels`).toBe(true);
        expect(validateJson(treeSchema, treeOf(levels)).valid).toBe(true);
      }
      // A deeper answer is still valid: answers are validated against the original schema.
      expect(validateJson(treeSchema, treeOf(6)).valid).toBe(true);
      // Gemini enforces "maxItems": 0 at the deepest level; Anthropic only reads it in the description.
      if (target === 'gemini') expect(validateJson(asJsonSchema, treeOf(4)).valid).toBe(false);
    },
  );

  it('depth 1 keeps one level: the root itself, with an empty children array', () => {
    const lowered = lowerJsonSchema(treeSchema, 'gemini', { recursionDepth: 1 });
    expect((lowered.schema.properties as Record<string, unknown>).children).toEqual({
      type: 'array',
      items: { type: 'string' },
      maxItems: 0,
    });
  });

  it('a nullable link through $defs: the deepest level can only be null', () => {
    const schema = {
      type: 'object',
      properties: { head: { $ref: '#/$defs/Item' } },
      required: ['head'],
      $defs: {
        Item: {
          type: 'object',
          properties: {
            value: { type: 'integer' },
            next: { anyOf: [{ $ref: '#/$defs/Item' }, { type: 'null' }] },
          },
          required: ['value', 'next'],
        },
      },
    };
    const lowered = lowerJsonSchema(schema, 'gemini', { recursionDepth: 2 });
    const head = (lowered.schema.properties as Record<string, Record<string, unknown>>).head;
    const second = (head?.properties as Record<string, Record<string, unknown>>).next;
    expect(second).toMatchObject({ type: 'object', nullable: true });
    expect((second?.properties as Record<string, unknown>).next).toEqual({
      type: 'string',
      nullable: true,
      description: 'Must be null.',
    });
    expect(unrollChanges(lowered.changes).map(({ pointer, keyword }) => [pointer, keyword])).toEqual([
      ['/$defs/Item/properties/next/anyOf/0', '$ref'],
      ['/$defs/Item/properties/next/anyOf/0', 'anyOf'],
    ]);
    const list = { head: { value: 1, next: { value: 2, next: null } } };
    expect(validateJson(geminiAsJsonSchema(lowered.schema) as Record<string, unknown>, list).valid).toBe(
      true,
    );
  });

  it('an optional property that recurses is left out at the deepest level', () => {
    const schema = {
      type: 'object',
      properties: { label: { type: 'string' }, parent: { $ref: '#' } },
      required: ['label'],
    };
    const lowered = lowerJsonSchema(schema, 'anthropic', { recursionDepth: 2 });
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: {
        label: { type: 'string' },
        parent: {
          type: 'object',
          properties: { label: { type: 'string' } },
          required: ['label'],
          additionalProperties: false,
        },
      },
      required: ['label'],
      additionalProperties: false,
    });
    const cut = unrollChanges(lowered.changes).find((change) => change.keyword === 'properties');
    expect(cut).toMatchObject({ pointer: '/properties/parent' });
    expect(cut?.detail).toMatch(/the optional property "parent" is left out/);
  });

  it('a required link to a schema that allows null becomes null at the deepest level', () => {
    const schema = {
      type: ['object', 'null'],
      properties: { value: { type: 'string' }, next: { $ref: '#' } },
      required: ['value', 'next'],
    };
    const lowered = lowerJsonSchema(schema, 'gemini', { recursionDepth: 2 });
    const next = (lowered.schema.properties as Record<string, Record<string, unknown>>).next;
    expect((next?.properties as Record<string, unknown>).next).toMatchObject({
      type: 'string',
      nullable: true,
    });
    expect(validateJson(schema, { value: 'a', next: { value: 'b', next: null } }).valid).toBe(true);
  });

  it('a required, non-empty recursion moves the cut up to the nearest optional place', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        sections: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              body: { type: 'array', minItems: 1, items: { $ref: '#' } },
            },
            required: ['title', 'body'],
          },
        },
      },
      required: ['name'],
    };
    const lowered = lowerJsonSchema(schema, 'gemini', { recursionDepth: 2 });
    // The non-empty `body` cannot end the recursion, so the deepest `sections` array must be empty instead.
    const sections = (lowered.schema.properties as Record<string, Record<string, unknown>>).sections;
    const body = (
      (sections?.items as Record<string, unknown>).properties as Record<string, Record<string, unknown>>
    ).body;
    const deepestSections = ((body?.items as Record<string, unknown>).properties as Record<string, unknown>)
      .sections;
    expect(deepestSections).toMatchObject({ type: 'array', maxItems: 0 });
    expect(unrollChanges(lowered.changes).map(({ pointer, keyword }) => [pointer, keyword])).toContainEqual([
      '/properties/sections',
      'items',
    ]);
  });

  it('a reference to a subschema that contains it (not under $defs) is unrolled too', () => {
    const schema = {
      type: 'object',
      properties: {
        folder: {
          type: 'object',
          properties: { name: { type: 'string' }, sub: { $ref: '#/properties/folder' } },
        },
      },
    };
    const lowered = lowerJsonSchema(schema, 'gemini', { recursionDepth: 3 });
    let level = (lowered.schema.properties as Record<string, Record<string, unknown>>).folder;
    let levels = 0;
    while (level) {
      levels += 1;
      level = (level.properties as Record<string, Record<string, unknown>>).sub;
    }
    expect(levels).toBe(3);
  });

  it.each(['gemini', 'anthropic'] as const)(
    '%s: recursion no level can leave out is a typed error naming the reference',
    (target) => {
      const endless = {
        type: 'object',
        properties: { child: { $ref: '#/$defs/Node' } },
        required: ['child'],
        $defs: {
          Node: {
            type: 'object',
            properties: { kids: { type: 'array', minItems: 1, items: { $ref: '#/$defs/Node' } } },
            required: ['kids'],
          },
        },
      };
      const error = loweringError(() => lowerJsonSchema(endless, target));
      expect(error).toMatchObject({ code: 'recursive-schema', pointer: '/$defs/Node/properties/kids/items' });
      expect(error.message).toMatch(/no finite answer exists/);
      expect(error.message).toMatch(/Make one link optional/);
    },
  );

  it.each([0, 11, 1.5, Number.NaN, -1])(
    'recursionDepth %s is refused with a RangeError naming the option',
    (depth) => {
      expect(() => lowerJsonSchema(treeSchema, 'gemini', { recursionDepth: depth })).toThrow(RangeError);
      expect(() => lowerJsonSchema(treeSchema, 'anthropic', { recursionDepth: depth })).toThrow(
        /recursionDepth must be an integer from 1 to 10/,
      );
    },
  );

  it('openai-strict keeps the recursion as a reference whatever the depth option', () => {
    const lowered = lowerJsonSchema(treeSchema, 'openai-strict', { recursionDepth: 1 });
    expect(JSON.stringify(lowered.schema)).toContain('"$ref":"#"');
    expect(unrollChanges(lowered.changes)).toEqual([]);
  });
});
