import type { ChatCompletionRequest } from './chat-completion-request';

/** What a JSON answer can be at its root, as far as its first character tells. */
export type JsonRootKind = 'object' | 'array' | 'scalar';

const allKinds: ReadonlySet<JsonRootKind> = new Set(['object', 'array', 'scalar']);
const objectOnly: ReadonlySet<JsonRootKind> = new Set(['object']);

function kindOfType(type: unknown): JsonRootKind | undefined {
  if (type === 'object') return 'object';
  if (type === 'array') return 'array';
  return typeof type === 'string' ? 'scalar' : undefined;
}

function kindOfValue(value: unknown): JsonRootKind {
  if (Array.isArray(value)) return 'array';
  return value !== null && typeof value === 'object' ? 'object' : 'scalar';
}

function intersect(left: ReadonlySet<JsonRootKind>, right: ReadonlySet<JsonRootKind>): Set<JsonRootKind> {
  return new Set([...left].filter((kind) => right.has(kind)));
}

/** The kinds a list of schemas allows together (`anyOf`, `oneOf`), or undefined when it is no list. */
function unionOf(schemas: unknown): ReadonlySet<JsonRootKind> | undefined {
  if (!Array.isArray(schemas) || schemas.length === 0) return undefined;
  const kinds = new Set<JsonRootKind>();
  for (const schema of schemas) for (const kind of schemaRootKinds(schema)) kinds.add(kind);
  return kinds;
}

/**
 * The kinds of value a JSON Schema allows at its root, from `type`, `nullable`, `enum`, `const`,
 * `anyOf`/`oneOf` and `allOf`. Always a superset of the truth: what it cannot tell (`$ref`, no
 * `type`, a contradiction) allows every kind, and the finished answer's validation decides then.
 */
export function schemaRootKinds(schema: unknown): ReadonlySet<JsonRootKind> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return allKinds;
  const node = schema as Record<string, unknown>;
  let kinds: ReadonlySet<JsonRootKind> = allKinds;
  const types = Array.isArray(node['type']) ? node['type'] : node['type'] === undefined ? [] : [node['type']];
  const typeKinds = types.map(kindOfType).filter((kind) => kind !== undefined);
  if (typeKinds.length > 0) {
    // OpenAPI's `nullable` (Gemini's dialect) adds null, a scalar.
    kinds = new Set(node['nullable'] === true ? [...typeKinds, 'scalar' as const] : typeKinds);
  }
  if (Array.isArray(node['enum'])) kinds = intersect(kinds, new Set(node['enum'].map(kindOfValue)));
  if ('const' in node) kinds = intersect(kinds, new Set([kindOfValue(node['const'])]));
  for (const keyword of ['anyOf', 'oneOf']) {
    const union = unionOf(node[keyword]);
    if (union) kinds = intersect(kinds, union);
  }
  if (Array.isArray(node['allOf'])) {
    for (const part of node['allOf']) kinds = intersect(kinds, schemaRootKinds(part));
  }
  return kinds.size === 0 ? allKinds : kinds;
}

/** The root kinds a `response_format` allows: `json_object` only objects, a schema what it says. */
export function requestedRootKinds(
  responseFormat: ChatCompletionRequest['response_format'],
): ReadonlySet<JsonRootKind> {
  switch (responseFormat?.type) {
    case 'json_object':
      return objectOnly;
    case 'json_schema':
      return schemaRootKinds(responseFormat.json_schema.schema);
    default:
      // Text: nothing is checked.
      return allKinds;
  }
}

/** What the first non-whitespace character of an answer says it is; `prose` when no JSON starts so. */
export function rootKindOfStart(character: string): JsonRootKind | 'prose' {
  if (character === '{') return 'object';
  if (character === '[') return 'array';
  return /^["\d\-tfn]$/.test(character) ? 'scalar' : 'prose';
}
