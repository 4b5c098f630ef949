import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import type { SchemaTarget } from '../../src/schema/schema-change';
import { SchemaLoweringError } from '../../src/schema/schema-lowering-error';
import { targetFormats, targetKeywords } from '../../src/schema/target-keywords';
import { validateJson } from '../../src/schema/validate-json';
import { losslessSchema, realisticSchema, recursiveSchema, withDefinitions } from './schema-arbitraries';
import { valueArbitrary } from './value-arbitrary';
import {
  isSchemaObject,
  LOWERED_APPLICATORS,
  pointerExists,
  type SchemaObject,
  walkSchemas,
} from './walk-schema';

/** `/$defs/<name>` of every definition referenced from the parts of `root` that get lowered. */
function reachableDefinitions(root: SchemaObject, walked: ReadonlySet<string>): Set<string> {
  const reached = new Set<string>();
  const pending: unknown[] = [{ ...root, $defs: undefined }];
  while (pending.length > 0) {
    for (const { schema } of walkSchemas(pending.pop(), walked)) {
      const ref = typeof schema.$ref === 'string' ? schema.$ref.slice(1) : undefined;
      if (ref === undefined || reached.has(ref)) continue;
      reached.add(ref);
      pending.push((root.$defs as SchemaObject | undefined)?.[ref.slice('/$defs/'.length)]);
    }
  }
  return reached;
}

/** Schema-shaped objects with keywords in the right places but values that may be of any JSON kind. */
const garbledSchema: fc.Arbitrary<SchemaObject> = fc.letrec<{ schema: SchemaObject }>((tie) => ({
  schema: fc.dictionary(
    fc.constantFrom(
      'type',
      'enum',
      'const',
      'properties',
      'required',
      'items',
      'anyOf',
      'oneOf',
      'allOf',
      '$ref',
      'minLength',
      'pattern',
      'format',
      'minimum',
      'additionalProperties',
      'not',
      'description',
      'x-extra',
    ),
    fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        'string',
        'object',
        ['integer', 'null'],
        '#',
        '#/properties/a',
        '#/$defs/X',
        'date-time',
        '^a+$',
      ),
      tie('schema'),
      fc.array(tie('schema'), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom('a', 'b'), tie('schema'), { maxKeys: 2 }),
    ),
    { maxKeys: 4 },
  ),
})).schema;

const TARGETS: readonly SchemaTarget[] = ['openai-strict', 'anthropic', 'gemini'];
const RUNS = { numRuns: 200 };

const anySchema = fc.oneof(withDefinitions(losslessSchema), withDefinitions(realisticSchema));

/** Every subschema of the lowered output uses only keywords (and keyword values) the target accepts. */
function expectOnlyTargetKeywords(target: SchemaTarget, lowered: SchemaObject): void {
  for (const { schema, pointer } of walkSchemas(lowered, LOWERED_APPLICATORS)) {
    for (const [keyword, value] of Object.entries(schema)) {
      expect(targetKeywords[target].has(keyword), `${target}: "${keyword}" at ${pointer || '/'}`).toBe(true);
      if (keyword === 'format')
        expect(targetFormats[target].has(String(value)), `format ${String(value)}`).toBe(true);
      if (keyword === 'additionalProperties') expect(value).toBe(false);
      if (keyword === 'enum' && target === 'gemini')
        expect((value as unknown[]).every((item) => typeof item === 'string')).toBe(true);
      if (keyword === 'minItems' && target === 'anthropic') expect(value === 0 || value === 1).toBe(true);
    }
    if (target === 'gemini')
      expect(schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))).toBe(
        false,
      );
  }
}

describe('lowering properties', () => {
  it.each(TARGETS)('(a) %s output only contains keywords the target accepts', (target) => {
    fc.assert(
      fc.property(anySchema, (schema) => {
        expectOnlyTargetKeywords(target, lowerJsonSchema(schema, target).schema);
      }),
      RUNS,
    );
  });

  it.each(TARGETS)('(a) %s output of recursive schemas only contains accepted keywords', (target) => {
    fc.assert(
      fc.property(recursiveSchema, (schema) => {
        expectOnlyTargetKeywords(target, lowerJsonSchema(schema, target).schema);
      }),
      RUNS,
    );
  });

  it.each(TARGETS)('(b) %s lowering is pure and deterministic', (target) => {
    fc.assert(
      fc.property(anySchema, (schema) => {
        const before = structuredClone(schema);
        const first = lowerJsonSchema(schema, target);
        expect(schema).toEqual(before);
        const second = lowerJsonSchema(structuredClone(schema), target);
        expect(second.schema).toEqual(first.schema);
        expect(second.changes).toEqual(first.changes);
      }),
      RUNS,
    );
  });

  it.each(TARGETS)('every %s change points into the original schema', (target) => {
    fc.assert(
      fc.property(anySchema, (schema) => {
        for (const change of lowerJsonSchema(schema, target).changes) {
          expect(pointerExists(schema, change.pointer), `${change.pointer} (${change.keyword})`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('(c) openai-strict: every object is closed and requires all of its keys', () => {
    fc.assert(
      fc.property(fc.oneof(anySchema, recursiveSchema), (schema) => {
        const lowered = lowerJsonSchema(schema, 'openai-strict').schema;
        expect(lowered.type).toBe('object');
        for (const { schema: node } of walkSchemas(lowered, LOWERED_APPLICATORS)) {
          const types = Array.isArray(node.type) ? node.type : [node.type];
          if (!types.includes('object')) continue;
          expect(node.additionalProperties).toBe(false);
          expect(node.required).toEqual(Object.keys(node.properties as SchemaObject));
        }
      }),
      RUNS,
    );
  });

  it('(d) openai-strict: answers valid under a lossless lowering validate against the original after restore', () => {
    const cases = fc.oneof(withDefinitions(losslessSchema), recursiveSchema).chain((schema) => {
      const lowered = lowerJsonSchema(schema, 'openai-strict');
      return fc.tuple(
        fc.constant(schema),
        fc.constant(lowered),
        valueArbitrary(lowered.schema, lowered.schema),
      );
    });
    fc.assert(
      fc.property(cases, ([schema, lowered, answer]) => {
        // The generator is checked too: the answer really is valid under the lowered schema.
        expect(validateJson(lowered.schema, answer).errors).toEqual([]);
        const before = structuredClone(answer);
        const restored = lowered.restore(answer);
        expect(answer).toEqual(before);
        expect(validateJson(schema, restored).errors).toEqual([]);
      }),
      RUNS,
    );
  });

  it.each(TARGETS)('(e) %s reports every keyword it does not keep, at its original pointer', (target) => {
    const anthropicRegex = /\\[1-9bBk]|\(\?[=!<]/;
    const keeps = (keyword: string, value: unknown, node: SchemaObject): boolean => {
      if (!targetKeywords[target].has(keyword)) return false;
      if (keyword === 'format') return node.type === 'string' && targetFormats[target].has(String(value));
      if (target === 'anthropic' && keyword === 'minItems') return value === 0 || value === 1;
      if (target === 'anthropic' && keyword === 'pattern') return !anthropicRegex.test(String(value));
      return true;
    };
    const checked = new Set([
      'minLength',
      'maxLength',
      'pattern',
      'format',
      'contentEncoding',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minItems',
      'maxItems',
      'uniqueItems',
      'contains',
      'minProperties',
      'maxProperties',
      'dependentRequired',
      'not',
      'patternProperties',
      'propertyNames',
      'examples',
      'default',
      '$comment',
      'deprecated',
      'x-vendor',
      'title',
    ]);
    // Map values (`additionalProperties` schemas) are described as a whole, not lowered keyword by keyword.
    const walked = new Set(['properties', 'items', 'anyOf', 'oneOf', '$defs']);
    fc.assert(
      fc.property(withDefinitions(realisticSchema), (schema) => {
        const { changes } = lowerJsonSchema(schema, target);
        // Definitions referenced only from map values (described as a whole) are never lowered.
        const lowered = reachableDefinitions(schema, walked);
        const isUnusedDefinition = (pointer: string) => {
          const definition = /^\/\$defs\/[^/]+/.exec(pointer)?.[0];
          return definition !== undefined && !lowered.has(definition);
        };
        for (const { schema: node, pointer } of walkSchemas(schema, walked)) {
          if (isUnusedDefinition(pointer)) continue;
          for (const [keyword, value] of Object.entries(node)) {
            if (!checked.has(keyword) || keeps(keyword, value, node)) continue;
            const reported = changes.filter(
              (change) => change.pointer === pointer && change.keyword === keyword,
            );
            expect(
              reported.length,
              `${target} did not report ${keyword} at ${pointer || '/'}`,
            ).toBeGreaterThan(0);
            const isAnnotation = [
              'examples',
              'default',
              '$comment',
              'deprecated',
              'x-vendor',
              'title',
            ].includes(keyword);
            const expected =
              isAnnotation || (keyword === 'uniqueItems' && value === false)
                ? 'dropped'
                : 'moved-to-description';
            expect(reported.map((change) => change.action)).toContain(expected);
          }
        }
      }),
      RUNS,
    );
  });

  it.each(TARGETS)(
    '%s: arbitrary (even nonsensical) schemas either lower or fail with SchemaLoweringError',
    (target) => {
      fc.assert(
        fc.property(garbledSchema, (schema) => {
          try {
            expectOnlyTargetKeywords(target, lowerJsonSchema(schema, target).schema);
          } catch (error) {
            if (!(error instanceof SchemaLoweringError)) throw error;
            expect(error.message.length).toBeGreaterThan(0);
          }
        }),
        RUNS,
      );
    },
  );

  it('validateJson never throws, whatever the schema', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (schema, value) => {
        const result = validateJson(isSchemaObject(schema) ? schema : { const: schema }, value);
        expect(typeof result.valid).toBe('boolean');
        if (!result.valid) expect(result.errors.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });
});
