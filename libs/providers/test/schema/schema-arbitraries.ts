import fc from 'fast-check';
import type { SchemaObject } from './walk-schema';

/**
 * Test helpers: fast-check arbitraries of realistic JSON Schemas.
 *  - `losslessSchema`: only constructs OpenAI strict mode enforces exactly (after restore), so
 *    answers produced under the lowered schema must validate against the original.
 *  - `realisticSchema`: adds what users really write and targets cannot enforce (length limits,
 *    unsupported formats, uniqueItems, maps, oneOf, type unions, annotations…).
 *  - `recursiveSchema`: trees and linked lists through `$defs` or `#`.
 */

const propertyNames = ['id', 'name', 'price', 'tags', 'kind', 'when', 'note', 'a/b', 'size~'] as const;
const words = ['red', 'green', 'blue', 'small', 'large'] as const;

const annotations: fc.Arbitrary<SchemaObject> = fc.record(
  {
    description: fc.constantFrom('A value.', 'Price in EUR', 'Free text'),
    title: fc.constantFrom('Thing', 'Item'),
  },
  { requiredKeys: [] },
);

function withAnnotations(schema: fc.Arbitrary<SchemaObject>): fc.Arbitrary<SchemaObject> {
  return fc.tuple(schema, annotations).map(([base, extra]) => ({ ...base, ...extra }));
}

/** Integer bounds with minimum <= maximum. */
const integerBounds: fc.Arbitrary<SchemaObject> = fc
  .tuple(
    fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  )
  .map(([minimum, span]) => ({
    ...(minimum !== undefined && { minimum }),
    ...(span !== undefined && { maximum: (minimum ?? 0) + span }),
  }));

const losslessLeaf: fc.Arbitrary<SchemaObject> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc
    .uniqueArray(fc.constantFrom(...words), { minLength: 1, maxLength: 3 })
    .map((values) => ({ type: 'string', enum: values })),
  fc
    .uniqueArray(fc.constantFrom(...words), { minLength: 1, maxLength: 3 })
    .map((values) => ({ enum: values })),
  integerBounds.map((bounds) => ({ type: 'integer', ...bounds })),
  integerBounds.map((bounds) => ({ type: 'number', ...bounds })),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'null' }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constantFrom<unknown>('fixed', 7, true).map((value) => ({ const: value })),
  fc
    .uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 })
    .map((values) => ({ type: 'integer', enum: values })),
);

/** Object properties as entries with a `required` flag each. */
function objectOf(
  child: fc.Arbitrary<SchemaObject>,
  extras: fc.Arbitrary<SchemaObject> = fc.constant({}),
): fc.Arbitrary<SchemaObject> {
  return fc
    .tuple(
      fc.uniqueArray(fc.tuple(fc.constantFrom(...propertyNames), child, fc.boolean()), {
        minLength: 0,
        maxLength: 4,
        selector: ([name]) => name,
      }),
      fc.boolean(),
      extras,
    )
    .map(([entries, closed, extra]) => ({
      type: 'object',
      properties: Object.fromEntries(entries.map(([name, schema]) => [name, schema])),
      required: entries.filter(([, , required]) => required).map(([name]) => name),
      ...(closed && { additionalProperties: false }),
      ...extra,
    }));
}

function arrayOf(child: fc.Arbitrary<SchemaObject>): fc.Arbitrary<SchemaObject> {
  return fc
    .tuple(
      child,
      fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    )
    .map(([items, minItems, extra]) => ({
      type: 'array',
      items,
      ...(minItems !== undefined && { minItems }),
      ...(extra !== undefined && { maxItems: (minItems ?? 0) + extra }),
    }));
}

/** Schemas whose every constraint OpenAI strict mode enforces (with restore for optional properties). */
export function losslessSchema(definitionNames: readonly string[] = []): fc.Arbitrary<SchemaObject> {
  const refs = definitionNames.map((name) => ({ $ref: `#/$defs/${name}` }));
  return fc.letrec<{
    schema: SchemaObject;
    object: SchemaObject;
    array: SchemaObject;
    union: SchemaObject;
    exclusive: SchemaObject;
    merged: SchemaObject;
  }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      withAnnotations(losslessLeaf),
      ...(refs.length > 0 ? [fc.constantFrom(...refs)] : []),
      tie('object'),
      tie('array'),
      tie('union'),
      tie('exclusive'),
      tie('merged'),
    ),
    object: objectOf(tie('schema')),
    array: arrayOf(tie('schema')),
    union: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    // oneOf is exact when no value can match two branches: branches of pairwise distinct types.
    exclusive: fc
      .uniqueArray(fc.constantFrom('string', 'boolean', 'integer', 'null', 'object', 'array'), {
        minLength: 2,
        maxLength: 3,
      })
      .chain((kinds) =>
        fc.tuple(
          ...kinds.map((kind) =>
            kind === 'object' ? tie('object') : kind === 'array' ? tie('array') : fc.constant({ type: kind }),
          ),
        ),
      )
      .map((oneOf) => ({ oneOf })),
    // allOf of open objects with distinct property names merges exactly.
    merged: fc.tuple(objectOf(tie('schema')), objectOf(tie('schema'))).map(([first, second]) => {
      const firstProperties = first.properties as SchemaObject;
      const secondEntries = Object.entries(second.properties as SchemaObject).filter(
        ([name]) => !(name in firstProperties),
      );
      const secondNames = new Set(secondEntries.map(([name]) => name));
      return {
        allOf: [
          { type: 'object', properties: firstProperties, required: first.required },
          {
            properties: Object.fromEntries(secondEntries),
            required: (second.required as string[]).filter((name) => secondNames.has(name)),
          },
        ],
      };
    }),
  })).schema;
}

/** A root with `$defs` whose definitions do not refer to each other (so nothing is recursive). */
export function withDefinitions(
  make: (definitionNames: readonly string[]) => fc.Arbitrary<SchemaObject>,
): fc.Arbitrary<SchemaObject> {
  return fc
    .uniqueArray(fc.constantFrom('Address', 'Money', 'Tag'), { maxLength: 2 })
    .chain((names) =>
      fc
        .tuple(make(names), fc.tuple(...names.map(() => make([]))))
        .map(([root, definitions]) =>
          names.length === 0
            ? root
            : { ...root, $defs: Object.fromEntries(names.map((name, index) => [name, definitions[index]])) },
        ),
    );
}

const lossyString: fc.Arbitrary<SchemaObject> = fc.record(
  {
    type: fc.constant('string'),
    minLength: fc.integer({ min: 0, max: 3 }),
    maxLength: fc.integer({ min: 4, max: 20 }),
    pattern: fc.constantFrom('^[a-z]+$', '^(a)\\1$', '(?=x)x', '\\bword\\b'),
    format: fc.constantFrom('date-time', 'email', 'uri', 'uuid', 'ipv4', 'hostname', 'regex'),
    contentEncoding: fc.constant('base64'),
  },
  { requiredKeys: ['type'] },
);

const lossyNumber: fc.Arbitrary<SchemaObject> = fc.record(
  {
    type: fc.constantFrom('number', 'integer'),
    minimum: fc.integer({ min: -5, max: 0 }),
    maximum: fc.integer({ min: 10, max: 20 }),
    exclusiveMinimum: fc.integer({ min: -10, max: -6 }),
    exclusiveMaximum: fc.integer({ min: 30, max: 40 }),
    multipleOf: fc.constantFrom(1, 2, 0.5),
  },
  { requiredKeys: ['type'] },
);

const lossyAnnotations: fc.Arbitrary<SchemaObject> = fc.record(
  {
    description: fc.constant('Described.'),
    title: fc.constant('Titled'),
    examples: fc.constant(['example']),
    default: fc.constant(null),
    $comment: fc.constant('for authors'),
    deprecated: fc.boolean(),
    'x-vendor': fc.constant(1),
  },
  { requiredKeys: [] },
);

/** Realistic schemas, including keywords the targets do not (all) enforce. No `allOf` (see the merge tests). */
export function realisticSchema(definitionNames: readonly string[] = []): fc.Arbitrary<SchemaObject> {
  const refs = definitionNames.map((name) => ({ $ref: `#/$defs/${name}` }));
  const leaf = fc.oneof(
    losslessLeaf,
    lossyString,
    lossyNumber,
    fc.constant({ enum: ['a', 1, null] }),
    fc.constant({ type: ['string', 'integer', 'null'] }),
  );
  return fc.letrec<{
    schema: SchemaObject;
    object: SchemaObject;
    array: SchemaObject;
    union: SchemaObject;
    map: SchemaObject;
  }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(leaf, lossyAnnotations).map(([base, extra]) => ({ ...base, ...extra })),
      ...(refs.length > 0 ? [fc.constantFrom(...refs)] : []),
      tie('object'),
      tie('array'),
      tie('union'),
      tie('map'),
    ),
    object: objectOf(
      tie('schema'),
      fc.record(
        {
          minProperties: fc.integer({ min: 0, max: 2 }),
          maxProperties: fc.integer({ min: 3, max: 5 }),
          dependentRequired: fc.constant({ id: ['name'] }),
          not: fc.constant({ required: ['note'] }),
        },
        { requiredKeys: [] },
      ),
    ),
    array: fc
      .tuple(
        arrayOf(tie('schema')),
        fc.record(
          {
            uniqueItems: fc.boolean(),
            contains: fc.constant({ type: 'string' }),
            minItems: fc.integer({ min: 0, max: 3 }),
          },
          { requiredKeys: [] },
        ),
      )
      .map(([base, extra]) => ({
        ...base,
        ...extra,
        ...(typeof extra.minItems === 'number' && { maxItems: extra.minItems + 2 }),
      })),
    union: fc
      .tuple(fc.constantFrom('anyOf', 'oneOf'), fc.array(tie('schema'), { minLength: 1, maxLength: 3 }))
      .map(([keyword, branches]) => ({ [keyword]: branches })),
    map: fc
      .tuple(
        tie('schema'),
        fc.constantFrom<SchemaObject>(
          {},
          { patternProperties: { '^x-': { type: 'string' } } },
          { propertyNames: { pattern: '^[a-z]+$' } },
        ),
      )
      .map(([values, extra]) => ({ type: 'object', additionalProperties: values, ...extra })),
  })).schema;
}

/** Recursive schemas: a tree through `$defs` (children array or optional `next`) or through `#`. */
export const recursiveSchema: fc.Arbitrary<SchemaObject> = fc
  .record({
    viaRoot: fc.boolean(),
    viaArray: fc.boolean(),
    leaf: losslessLeaf,
    valueRequired: fc.boolean(),
    withDescription: fc.boolean(),
  })
  .map(({ viaRoot, viaArray, leaf, valueRequired, withDescription }) => {
    const ref = viaRoot ? '#' : '#/$defs/Node';
    const link = { $ref: ref, ...(withDescription && { description: 'The next node' }) };
    const node: SchemaObject = {
      type: 'object',
      properties: {
        value: leaf,
        [viaArray ? 'children' : 'next']: viaArray ? { type: 'array', items: link } : link,
      },
      required: valueRequired ? ['value'] : [],
    };
    return viaRoot
      ? node
      : {
          type: 'object',
          properties: { root: { $ref: '#/$defs/Node' } },
          required: ['root'],
          $defs: { Node: node },
        };
  });

/** How a recursive node links to the next level; each one can be left out at some level. */
export type RecursiveLink =
  'array' | 'optional' | 'nullable-anyOf' | 'optional-array-of-required' | 'nullable-type';

/**
 * Recursive schemas that every level can end (so targets without recursion can unroll them), built
 * from the given leaves: reached through `#`, `#/$defs/Node` or a subschema (`#/properties/node`),
 * linked by an array, an optional property, `anyOf` with null, a required non-empty array inside
 * an optional property, or a required link to a nullable node.
 */
export function unrollableRecursiveSchema(leaf: fc.Arbitrary<SchemaObject>): fc.Arbitrary<SchemaObject> {
  return fc
    .record({
      via: fc.constantFrom('root', 'defs', 'subschema'),
      link: fc.constantFrom<RecursiveLink>(
        'array',
        'optional',
        'nullable-anyOf',
        'optional-array-of-required',
        'nullable-type',
      ),
      value: leaf,
      second: fc.option(leaf, { nil: undefined }),
      valueRequired: fc.boolean(),
    })
    .map(({ via, link, value, second, valueRequired }) => {
      const ref = via === 'root' ? '#' : via === 'defs' ? '#/$defs/Node' : '#/properties/node';
      const linkSchema: Record<RecursiveLink, SchemaObject> = {
        array: { type: 'array', items: { $ref: ref } },
        optional: { $ref: ref },
        'nullable-anyOf': { anyOf: [{ $ref: ref }, { type: 'null' }] },
        'optional-array-of-required': {
          type: 'object',
          properties: { items: { type: 'array', minItems: 1, items: { $ref: ref } } },
          required: ['items'],
        },
        'nullable-type': { $ref: ref },
      };
      const required = [
        ...(valueRequired ? ['value'] : []),
        ...(link === 'nullable-type' || link === 'nullable-anyOf' ? ['link'] : []),
      ];
      const node: SchemaObject = {
        type: link === 'nullable-type' ? ['object', 'null'] : 'object',
        properties: { value, ...(second && { second }), link: linkSchema[link] },
        required,
      };
      if (via === 'root') return node;
      if (via === 'subschema') return { type: 'object', properties: { node }, required: ['node'] };
      return {
        type: 'object',
        properties: { node: { $ref: '#/$defs/Node' } },
        required: ['node'],
        $defs: { Node: node },
      };
    });
}
