import fc from 'fast-check';
import { isSchemaObject, type SchemaObject } from './walk-schema';

/**
 * Test helper: a fast-check arbitrary of JSON values that satisfy a LOWERED schema (the subset the
 * lowerings emit: type / enum / const / anyOf / properties+required / items / min-max / $ref).
 * Recursion through `$ref` is cut off after a few levels with the smallest valid value.
 */

const MAX_REF_DEPTH = 3;

function resolve(root: SchemaObject, ref: string): SchemaObject {
  let current: unknown = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    current = isSchemaObject(current) ? current[token] : undefined;
  }
  if (!isSchemaObject(current)) throw new Error(`test helper cannot resolve ${ref}`);
  return current;
}

function types(schema: SchemaObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : [];
}

function numberBounds(schema: SchemaObject): {
  min?: number;
  max?: number;
  minExcluded: boolean;
  maxExcluded: boolean;
} {
  const numberOrUndefined = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const minimum = numberOrUndefined(schema.minimum);
  const exclusiveMinimum = numberOrUndefined(schema.exclusiveMinimum);
  const maximum = numberOrUndefined(schema.maximum);
  const exclusiveMaximum = numberOrUndefined(schema.exclusiveMaximum);
  const min =
    exclusiveMinimum !== undefined && (minimum === undefined || exclusiveMinimum >= minimum)
      ? exclusiveMinimum
      : minimum;
  const max =
    exclusiveMaximum !== undefined && (maximum === undefined || exclusiveMaximum <= maximum)
      ? exclusiveMaximum
      : maximum;
  return {
    min,
    max,
    minExcluded: min !== undefined && min === exclusiveMinimum,
    maxExcluded: max !== undefined && max === exclusiveMaximum,
  };
}

function valueOfType(
  type: string,
  schema: SchemaObject,
  root: SchemaObject,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.string({
        minLength: Number(schema.minLength ?? 0),
        maxLength: Number(schema.maxLength ?? 8),
      });
    case 'integer': {
      const { min, max, minExcluded, maxExcluded } = numberBounds(schema);
      const low = min === undefined ? -1000 : minExcluded ? Math.floor(min) + 1 : Math.ceil(min);
      const high = max === undefined ? 1000 : maxExcluded ? Math.ceil(max) - 1 : Math.floor(max);
      return fc.integer({ min: low, max: Math.max(low, high) });
    }
    case 'number': {
      const { min, max, minExcluded, maxExcluded } = numberBounds(schema);
      return fc
        .double({
          min: min ?? -1e6,
          max: max ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
          minExcluded,
          maxExcluded,
        })
        .map((value) => (Object.is(value, -0) ? 0 : value));
    }
    case 'array': {
      const minLength = Number(schema.minItems ?? 0);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 3), 3));
      const items =
        schema.items === undefined ? fc.constant(null) : valueArbitrary(schema.items, root, depth);
      return fc.array(items, { minLength, maxLength: depth > MAX_REF_DEPTH ? minLength : maxLength });
    }
    case 'object': {
      const properties = isSchemaObject(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, child] of Object.entries(properties))
        model[name] = valueArbitrary(child, root, depth);
      return fc.record(model, { requiredKeys: [...required].filter((name) => name in model) });
    }
    default:
      throw new Error(`test helper does not know type ${type}`);
  }
}

/** The smallest value (no recursion needed), used once the reference depth is exhausted. */
function smallest(schema: SchemaObject, root: SchemaObject, seen: number): unknown {
  if (seen > 20) throw new Error('test helper: schema has no finite value');
  if (typeof schema.$ref === 'string') return smallest(resolve(root, schema.$ref), root, seen + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) {
    const nullBranch = schema.anyOf.find((branch) => isSchemaObject(branch) && branch.type === 'null');
    const chosen = nullBranch ?? schema.anyOf.find(isSchemaObject);
    return isSchemaObject(chosen) ? smallest(chosen, root, seen + 1) : null;
  }
  const schemaTypes = types(schema);
  if (schemaTypes.includes('null')) return null;
  const [type] = schemaTypes;
  if (type === 'array') {
    const minItems = Number(schema.minItems ?? 0);
    return Array.from({ length: minItems }, () =>
      isSchemaObject(schema.items) ? smallest(schema.items, root, seen + 1) : null,
    );
  }
  if (type === 'object') {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    return Object.fromEntries(
      required.map((name) => [
        name,
        isSchemaObject(properties[name]) ? smallest(properties[name], root, seen + 1) : null,
      ]),
    );
  }
  if (type === 'string') return 'x'.repeat(Number(schema.minLength ?? 0));
  if (type === 'integer' || type === 'number') {
    const { min, max, minExcluded } = numberBounds(schema);
    if (min !== undefined)
      return type === 'integer'
        ? minExcluded
          ? Math.floor(min) + 1
          : Math.ceil(min)
        : minExcluded
          ? min + Math.min(1, ((max ?? min + 2) - min) / 2)
          : min;
    return max !== undefined ? Math.min(0, Math.floor(max) - 1) : 0;
  }
  return type === 'boolean' ? false : null;
}

/** Values valid under `schema`; `root` resolves its `$ref`s. */
export function valueArbitrary(schema: unknown, root: SchemaObject, depth = 0): fc.Arbitrary<unknown> {
  if (!isSchemaObject(schema)) throw new Error('test helper expects schema objects');
  if (typeof schema.$ref === 'string') {
    const target = resolve(root, schema.$ref);
    return depth >= MAX_REF_DEPTH
      ? fc.constant(smallest(target, root, 0))
      : valueArbitrary(target, root, depth + 1);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf))
    return fc.oneof(...schema.anyOf.map((branch) => valueArbitrary(branch, root, depth)));
  const schemaTypes = types(schema);
  if (schemaTypes.length === 0)
    throw new Error(`test helper: untyped lowered schema ${JSON.stringify(schema)}`);
  return fc.oneof(...schemaTypes.map((type) => valueOfType(type, schema, root, depth)));
}
