import { isRecord, type JsonObject } from '../json';

/** A place in an answer, as property names and array indexes from the root. */
export type AnswerPath = readonly (string | number)[];

/** One way to make a valid answer invalid, found by walking the schema alongside the answer. */
export type VariationSpot =
  | { readonly kind: 'invalid-enum'; readonly path: AnswerPath; readonly replacement: unknown }
  | { readonly kind: 'wrong-type'; readonly path: AnswerPath; readonly replacement: unknown }
  | { readonly kind: 'missing-required'; readonly path: AnswerPath; readonly property: string };

const maxDepth = 24;

/**
 * Every spot where one change breaks the answer against the schema. The walk follows only
 * `properties`, `items` (one schema for all items) and local `$ref`s: every keyword of a schema
 * object reached that way must hold for the root to be valid, so a value failing one of them fails
 * the whole answer whatever `anyOf`/`allOf` siblings say. Spots are about the schema as the model
 * received it, which the caller's lowering only loosened (optional properties made nullable, see
 * `missing-required`), so they fail the caller's schema too.
 */
export function findVariationSpots(root: unknown, answer: unknown): VariationSpot[] {
  const spots: VariationSpot[] = [];
  walk(root, root, answer, [], 0, spots);
  return spots;
}

function walk(
  root: unknown,
  schema: unknown,
  value: unknown,
  path: AnswerPath,
  depth: number,
  spots: VariationSpot[],
): void {
  if (!isRecord(schema) || depth > maxDepth) return;
  if (typeof schema.$ref === 'string') {
    walk(root, resolveLocalRef(root, schema.$ref), value, path, depth + 1, spots);
  }
  const allowed = allowedValues(schema);
  if (allowed !== undefined && allowed.some((candidate) => sameJson(candidate, value))) {
    spots.push({ kind: 'invalid-enum', path, replacement: valueOutside(allowed, value) });
  }
  const types = declaredTypes(schema);
  if (types !== undefined) {
    const replacement = valueOfAnotherType(types);
    if (replacement !== undefined) spots.push({ kind: 'wrong-type', path, replacement });
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of required) {
      if (typeof name !== 'string' || !Object.hasOwn(value, name)) continue;
      if (mustBePresentAndNonNull(root, properties[name])) {
        spots.push({ kind: 'missing-required', path, property: name });
      }
    }
    for (const [name, child] of Object.entries(properties)) {
      if (Object.hasOwn(value, name)) walk(root, child, value[name], [...path, name], depth + 1, spots);
    }
  }
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    isRecord(schema.items) &&
    schema.prefixItems === undefined
  ) {
    walk(root, schema.items, value[0], [...path, 0], depth + 1, spots);
  }
}

/** `#/$defs/name`, `#/definitions/name` or any local JSON pointer; undefined when it leads nowhere. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function allowedValues(schema: JsonObject): readonly unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) && schema.enum.length > 0 ? schema.enum : undefined;
}

/** Lower-cased types (Gemini's OpenAPI subset writes `STRING`); undefined when none is declared. */
function declaredTypes(schema: JsonObject): ReadonlySet<string> | undefined {
  const raw = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const types = raw
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.toLowerCase());
  return types.length === 0 ? undefined : new Set(types);
}

/** A value none of the types accepts (never null: a nullable schema would take it). */
function valueOfAnotherType(types: ReadonlySet<string>): unknown {
  const numeric = types.has('number') || types.has('integer');
  if (!types.has('string')) return numeric ? '42' : 'not the right type';
  if (!numeric) return 42;
  if (!types.has('boolean')) return true;
  if (!types.has('object')) return { unexpected: true };
  if (!types.has('array')) return ['unexpected'];
  return undefined;
}

/**
 * Only a property whose schema refuses null counts as truly required: OpenAI's strict lowering
 * lists every property in `required` and makes the caller's optional ones nullable, so leaving out
 * a nullable one may be valid for the caller.
 */
function mustBePresentAndNonNull(root: unknown, schema: unknown, depth = 0): boolean {
  if (!isRecord(schema) || depth > maxDepth) return false;
  if (typeof schema.$ref === 'string')
    return mustBePresentAndNonNull(root, resolveLocalRef(root, schema.$ref), depth + 1);
  if (schema.nullable === true) return false;
  const allowed = allowedValues(schema);
  if (allowed !== undefined) return !allowed.includes(null);
  const types = declaredTypes(schema);
  return types !== undefined && !types.has('null');
}

/** A near miss outside the allowed values: the value upper-cased, or with a suffix. */
function valueOutside(allowed: readonly unknown[], value: unknown): unknown {
  const isAllowed = (candidate: unknown) => allowed.some((item) => sameJson(item, candidate));
  if (typeof value === 'string') {
    if (value.toUpperCase() !== value && !isAllowed(value.toUpperCase())) return value.toUpperCase();
    let candidate = `${value}-other`;
    while (isAllowed(candidate)) candidate = `${candidate}-other`;
    return candidate;
  }
  if (typeof value === 'number') {
    const numbers = allowed.filter((item): item is number => typeof item === 'number');
    return Math.max(value, ...numbers) + 1;
  }
  let candidate = 'unlisted';
  while (isAllowed(candidate)) candidate = `${candidate}-other`;
  return candidate;
}

/** Deep equality of JSON values, as `enum` and `const` compare them. */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  if (isRecord(left) && isRecord(right)) {
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]))
    );
  }
  return false;
}
