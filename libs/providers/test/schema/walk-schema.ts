/** Test helpers: walk every subschema of a (lowered or original) schema with its JSON pointer. */

export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerTo(base: string, ...tokens: Array<string | number>): string {
  return tokens.reduce<string>(
    (pointer, token) => `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`,
    base,
  );
}

/** Keywords whose value is one subschema, a list of them, or a name → subschema map. */
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];

/**
 * Every schema object reachable through applicator keywords, pre-order. `descend` limits which
 * keywords are followed (e.g. only the ones a lowering rebuilds).
 */
export function* walkSchemas(
  schema: unknown,
  descend: ReadonlySet<string> = new Set([...SINGLE, ...LISTS, ...MAPS]),
  pointer = '',
): Generator<{ schema: SchemaObject; pointer: string }> {
  if (!isSchemaObject(schema)) return;
  yield { schema, pointer };
  for (const [keyword, value] of Object.entries(schema)) {
    if (!descend.has(keyword)) continue;
    if (SINGLE.includes(keyword)) yield* walkSchemas(value, descend, pointerTo(pointer, keyword));
    else if (LISTS.includes(keyword) && Array.isArray(value)) {
      for (const [index, child] of value.entries())
        yield* walkSchemas(child, descend, pointerTo(pointer, keyword, index));
    } else if (MAPS.includes(keyword) && isSchemaObject(value)) {
      for (const [name, child] of Object.entries(value))
        yield* walkSchemas(child, descend, pointerTo(pointer, keyword, name));
    }
  }
}

/** The subschemas a lowered schema is made of (data-valued keywords such as `enum` are not walked). */
export const LOWERED_APPLICATORS: ReadonlySet<string> = new Set([
  'properties',
  'items',
  'anyOf',
  'allOf',
  '$defs',
]);

/** Whether `pointer` addresses something inside `root`. */
export function pointerExists(root: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^\d+$/.test(token) && Number(token) < current.length)
      current = current[Number(token)];
    else if (isSchemaObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return false;
  }
  return true;
}
