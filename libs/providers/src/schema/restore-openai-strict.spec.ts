import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from './lower-json-schema';
import { validateJson } from './validate-json';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    subtitle: { type: 'string' },
    comment: { type: ['string', 'null'] },
    lines: { type: 'array', items: { $ref: '#/$defs/Line' } },
    shape: {
      anyOf: [
        {
          type: 'object',
          properties: { radius: { type: 'number' }, label: { type: 'string' } },
          required: ['radius'],
        },
        {
          type: 'object',
          properties: { width: { type: 'number' }, height: { type: 'number' }, label: { type: 'string' } },
          required: ['width'],
        },
      ],
    },
    tree: { $ref: '#/$defs/Node' },
  },
  required: ['title', 'lines', 'shape'],
  $defs: {
    Line: {
      type: 'object',
      properties: { sku: { type: 'string' }, note: { type: 'string' } },
      required: ['sku'],
    },
    Node: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['name'],
    },
  },
};

describe('restore for openai-strict', () => {
  it('removes the nulls of optional properties deeply (arrays, $defs refs, recursion, anyOf branches) and keeps real nulls', () => {
    const lowered = lowerJsonSchema(schema, 'openai-strict');
    const answer = {
      title: 'T',
      subtitle: null,
      comment: null,
      lines: [
        { sku: 'a', note: null },
        { sku: 'b', note: 'n' },
      ],
      shape: { width: 2, height: null, label: null },
      tree: { name: 'root', children: [{ name: 'leaf', children: null }] },
    };
    expect(validateJson(lowered.schema, answer).errors).toEqual([]);
    const before = structuredClone(answer);

    const restored = lowered.restore(answer);

    expect(restored).toEqual({
      title: 'T',
      comment: null,
      lines: [{ sku: 'a' }, { sku: 'b', note: 'n' }],
      shape: { width: 2 },
      tree: { name: 'root', children: [{ name: 'leaf' }] },
    });
    expect(validateJson(schema, restored)).toEqual({ valid: true, errors: [] });
    expect(answer).toEqual(before);
  });

  it('picks the anyOf branch the answer matches before removing nulls', () => {
    const lowered = lowerJsonSchema(schema, 'openai-strict');
    const circle = {
      title: 'T',
      subtitle: null,
      comment: 'c',
      lines: [],
      shape: { radius: 1, label: null },
      tree: null,
    };
    expect(lowered.restore(circle)).toEqual({ title: 'T', comment: 'c', lines: [], shape: { radius: 1 } });
  });

  it('unwraps a wrapped root and restores inside it', () => {
    const lowered = lowerJsonSchema(
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'integer' } },
          required: ['b'],
        },
      },
      'openai-strict',
    );
    expect(
      lowered.restore({
        value: [
          { a: null, b: 1 },
          { a: 'x', b: 2 },
        ],
      }),
    ).toEqual([{ b: 1 }, { a: 'x', b: 2 }]);
  });

  it('keeps nulls the original allows, including through a nullable definition', () => {
    const lowered = lowerJsonSchema(
      {
        type: 'object',
        properties: {
          maybe: { $ref: '#/$defs/Maybe' },
          either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        $defs: { Maybe: { type: ['integer', 'null'] } },
      },
      'openai-strict',
    );
    expect(lowered.restore({ maybe: null, either: null })).toEqual({ maybe: null, either: null });
  });

  it('leaves answers that do not fit the schema alone', () => {
    const lowered = lowerJsonSchema(schema, 'openai-strict');
    expect(lowered.restore('not an object')).toBe('not an object');
    expect(lowered.restore([1, 2])).toEqual([1, 2]);
    expect(lowered.restore({ title: 'T', shape: { unknown: null } })).toEqual({
      title: 'T',
      shape: { unknown: null },
    });
  });

  it('is unaffected by later edits to the returned schema', () => {
    const lowered = lowerJsonSchema(schema, 'openai-strict');
    (lowered.schema.properties as Record<string, unknown>).subtitle = { type: 'string' };
    lowered.schema.$defs = {};
    expect(
      lowered.restore({
        title: 'T',
        subtitle: null,
        lines: [{ sku: 'a', note: null }],
        shape: { radius: 1, label: null },
        comment: null,
        tree: null,
      }),
    ).toEqual({
      title: 'T',
      lines: [{ sku: 'a' }],
      shape: { radius: 1 },
      comment: null,
    });
  });
});
