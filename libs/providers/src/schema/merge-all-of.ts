import { appendPointer } from './json-pointer';
import { deepEqual, isJsonType, isPlainObject, type JsonType } from './json-value';
import { isAnnotationKeyword } from './keyword-kinds';
import { type KeywordEntry, Located, locate, markSynthetic, type Scope, toPlainJson } from './located';
import { invalidSchema } from './schema-lowering-error';

/** Keywords where the stricter of two bounds wins when schemas are intersected. */
const LOWER_BOUNDS = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
]);
const UPPER_BOUNDS = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
]);
/** Single-subschema keywords whose conjunction is the `allOf` of both subschemas. */
const CONJUNCTIVE_SUBSCHEMAS = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Name → subschema maps; the same name in two schemas means both subschemas apply. */
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'prefixItems']);
const SINGLE_SUBSCHEMAS = new Set([...CONJUNCTIVE_SUBSCHEMAS, 'not', 'if', 'then', 'else', 'contains']);

type Combined = { ok: true; value: unknown } | { ok: false };

function typeList(value: unknown, pointer: string): JsonType[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isJsonType))
    throw invalidSchema(
      pointer,
      `"type" must be a JSON Schema type or a list of them, got ${JSON.stringify(value)}`,
    );
  return list;
}

function intersectTypes(left: unknown, right: unknown, pointer: string): unknown {
  const rightTypes = typeList(right, pointer);
  const result = typeList(left, pointer).flatMap((type): JsonType[] => {
    if (rightTypes.includes(type)) return [type];
    // Every integer is a number: number ∩ integer = integer.
    if (type === 'number' && rightTypes.includes('integer')) return ['integer'];
    if (type === 'integer' && rightTypes.includes('number')) return ['integer'];
    return [];
  });
  const unique = [...new Set(result)];
  if (unique.length === 0) {
    throw invalidSchema(
      pointer,
      `allOf requires types ${JSON.stringify(left)} and ${JSON.stringify(right)} at once; no value can match`,
    );
  }
  return unique.length === 1 ? unique[0] : unique;
}

/** Children of a schema keyword, wrapped so they remember their original pointer. */
function locateChildren(
  keyword: string,
  value: unknown,
  keywordPointer: string,
  scope: Scope | undefined,
): unknown {
  const at = appendPointer(keywordPointer, keyword);
  if (SUBSCHEMA_MAPS.has(keyword) && isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, child]) => [name, locate(child, appendPointer(at, name), scope)]),
    );
  }
  if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value))
    return value.map((child, index) => locate(child, appendPointer(at, index), scope));
  if (SINGLE_SUBSCHEMAS.has(keyword) && (isPlainObject(value) || typeof value === 'boolean'))
    return locate(value, at, scope);
  return value;
}

function conjunction(left: unknown, right: unknown): unknown {
  const plainLeft = left instanceof Located ? left.value : left;
  const plainRight = right instanceof Located ? right.value : right;
  if (plainLeft === false || plainRight === false) return false;
  if (plainLeft === true) return right;
  if (plainRight === true) return left;
  const first = left instanceof Located ? left : new Located(left, '');
  return new Located(markSynthetic({ allOf: [left, right] }), first.pointer);
}

function combine(keyword: string, existing: unknown, incoming: unknown, pointer: string): Combined {
  if (isAnnotationKeyword(keyword)) return { ok: true, value: existing }; // the first (outermost) wins
  if (keyword === 'type') return { ok: true, value: intersectTypes(existing, incoming, pointer) };
  if (keyword === 'required' && Array.isArray(existing) && Array.isArray(incoming)) {
    return { ok: true, value: [...new Set([...existing, ...incoming])] };
  }
  if (keyword === 'enum' && Array.isArray(existing) && Array.isArray(incoming)) {
    const common = existing.filter((value) => incoming.some((other) => deepEqual(value, other)));
    if (common.length === 0)
      throw invalidSchema(pointer, 'allOf combines enums with no value in common; no value can match');
    return { ok: true, value: common };
  }
  if (keyword === 'const') {
    if (!deepEqual(existing, incoming))
      throw invalidSchema(pointer, 'allOf combines two different "const" values; no value can match');
    return { ok: true, value: existing };
  }
  if (typeof existing === 'number' && typeof incoming === 'number') {
    if (LOWER_BOUNDS.has(keyword)) return { ok: true, value: Math.max(existing, incoming) };
    if (UPPER_BOUNDS.has(keyword)) return { ok: true, value: Math.min(existing, incoming) };
  }
  if (keyword === 'uniqueItems') return { ok: true, value: existing === true || incoming === true };
  if (CONJUNCTIVE_SUBSCHEMAS.has(keyword)) return { ok: true, value: conjunction(existing, incoming) };
  if (SUBSCHEMA_MAPS.has(keyword) && isPlainObject(existing) && isPlainObject(incoming)) {
    const merged: Record<string, unknown> = { ...existing };
    for (const [name, child] of Object.entries(incoming)) {
      merged[name] = name in merged ? conjunction(merged[name], child) : child;
    }
    return { ok: true, value: merged };
  }
  return deepEqual(toPlainJson(existing), toPlainJson(incoming))
    ? { ok: true, value: existing }
    : { ok: false };
}

/**
 * Intersects schemas (the entries of an `allOf`, a `$ref` and its siblings, a union branch and
 * the keywords beside the union) into one schema. Entries must be schema objects without `$ref`
 * or `allOf` at their top level; their children keep each entry's own `scope`. Keywords that cannot be intersected (two different patterns, two
 * unions…) are kept as leftovers: they are only described and checked afterwards.
 * Throws `invalid-schema` when the intersection is provably empty.
 */
export function mergeSchemas(entries: readonly Located[], pointer: string, scope: Scope): Located {
  const merged: Record<string, unknown> = {};
  const keywordPointers = new Map<string, string>();
  const leftovers: KeywordEntry[] = [];
  for (const entry of entries) {
    if (!isPlainObject(entry.value)) throw invalidSchema(entry.pointer, 'expected a schema object');
    leftovers.push(...entry.leftovers);
    for (const [keyword, rawValue] of Object.entries(entry.value)) {
      const keywordPointer = entry.keywordPointer(keyword);
      const value = locateChildren(keyword, rawValue, keywordPointer, entry.scope);
      if (!(keyword in merged)) {
        merged[keyword] = value;
        keywordPointers.set(keyword, keywordPointer);
        continue;
      }
      const combined = combine(keyword, merged[keyword], value, keywordPointer);
      if (combined.ok) merged[keyword] = combined.value;
      else leftovers.push({ keyword, value: rawValue, pointer: keywordPointer });
    }
  }
  return new Located(merged, pointer, keywordPointers, leftovers, scope);
}
