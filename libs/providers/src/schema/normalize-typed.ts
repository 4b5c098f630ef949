import type { ChangeLog } from './change-log';
import { appendPointer } from './json-pointer';
import {
  isJsonType,
  isPlainObject,
  isPrimitive,
  type JsonType,
  type Primitive,
  primitiveType,
  typeAccepts,
} from './json-value';
import {
  isAnnotationKeyword,
  keywordAppliesTo,
  keywordValueKind,
  UNIVERSAL_CONSTRAINTS,
} from './keyword-kinds';
import { type KeywordEntry, Located, locate, type Scope, toPlainJson } from './located';
import { describeCut, RecursionCut } from './recursion-unroll';
import type { PropertyNode, SchemaNode, TypedNode, UnionNode } from './schema-node';
import { invalidSchema } from './schema-lowering-error';

/** What typed-node building needs from the normalizer that drives it. */
export interface NormalizeContext {
  readonly changes: ChangeLog;
  /** The target rejects arrays without `items` (OpenAI strict, Gemini). */
  readonly arrayItemsRequired: boolean;
  normalize(located: Located, scope: Scope): SchemaNode;
}

/** "Any JSON value" for targets that need a type on every node: objects and arrays cannot be expressed. */
const UNCONSTRAINED_TYPES: readonly JsonType[] = ['string', 'number', 'boolean', 'null'];

const SKIPPED_KEYWORDS = new Set(['type', 'enum', 'const', '$defs', 'definitions']);

/** Keywords whose value must be a number; counts must also be non-negative integers. */
const NUMERIC_KEYWORDS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);
const COUNT_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
]);

/**
 * Rejects constraint values no validator accepts, so a target never receives e.g. `minLength: "3"`
 * (it would answer with a 400) and the caller learns which keyword to fix.
 */
function checkConstraintValue(keyword: string, value: unknown, pointer: string): void {
  if (COUNT_KEYWORDS.has(keyword) && !(Number.isInteger(value) && (value as number) >= 0)) {
    throw invalidSchema(pointer, `"${keyword}" must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  if (
    NUMERIC_KEYWORDS.has(keyword) &&
    (typeof value !== 'number' || !Number.isFinite(value) || (keyword === 'multipleOf' && value <= 0))
  ) {
    throw invalidSchema(
      pointer,
      `"${keyword}" must be a ${keyword === 'multipleOf' ? 'positive ' : ''}number, got ${JSON.stringify(value)}`,
    );
  }
  if (keyword === 'pattern') {
    try {
      new RegExp(String(value), 'u');
      if (typeof value !== 'string') throw new Error('not a string');
    } catch {
      throw invalidSchema(
        pointer,
        `"pattern" must be a valid regular expression, got ${JSON.stringify(value)}`,
      );
    }
  }
}

/** Runs `normalize`, returning the `RecursionCut` it threw instead of the node. */
function catchCut(normalize: () => SchemaNode): SchemaNode | RecursionCut {
  try {
    return normalize();
  } catch (error) {
    if (error instanceof RecursionCut) return error;
    throw error;
  }
}

function countValue(constraints: readonly KeywordEntry[], keyword: string): number {
  const entry = constraints.find((candidate) => candidate.keyword === keyword);
  const value = entry === undefined ? undefined : toPlainJson(entry.value);
  return typeof value === 'number' ? value : 0;
}

/**
 * The deepest unrolled level of an array whose items recurse: the array must be empty there
 * (`maxItems: 0`, its own size limits replaced). Targets that need an `items` schema get a plain
 * string one, which no value can reach.
 */
function cutArrayItems(context: NormalizeContext, node: TypedNode, cut: RecursionCut): void {
  if (countValue(node.constraints, 'minItems') > 0) throw cut;
  node.constraints = [
    { keyword: 'maxItems', value: 0, pointer: node.pointer },
    ...node.constraints.filter((entry) => entry.keyword !== 'maxItems' && entry.keyword !== 'minItems'),
  ];
  if (context.arrayItemsRequired) node.items = typedNode(node.pointer, 'string');
  context.changes.add(
    node.pointer,
    'items',
    'recursion-unrolled',
    describeCut(cut, 'this array must be empty ("maxItems": 0)'),
  );
}

function typedNode(pointer: string, type: JsonType): TypedNode {
  return { kind: 'typed', pointer, type, nullable: false, annotations: [], constraints: [] };
}

/** A union of every primitive type, for places the caller left unconstrained. */
export function unconstrainedNode(pointer: string): UnionNode {
  return {
    kind: 'union',
    pointer,
    annotations: [],
    constraints: [],
    branches: UNCONSTRAINED_TYPES.map((type) => typedNode(pointer, type)),
  };
}

function parseTypes(value: unknown, pointer: string): JsonType[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every(isJsonType)) {
    throw invalidSchema(
      pointer,
      `"type" must be one of ${'string, number, integer, boolean, null, object, array'} or a non-empty list of them, got ${JSON.stringify(value)}`,
    );
  }
  return list;
}

/** Removes duplicates; `integer` is redundant next to `number`. */
function collapseTypes(types: readonly JsonType[]): JsonType[] {
  const unique = [...new Set(types)];
  return unique.includes('number') ? unique.filter((type) => type !== 'integer') : unique;
}

function inferTypesFromKeywords(schema: Record<string, unknown>): { types: JsonType[]; from: string[] } {
  const types: JsonType[] = [];
  const from: string[] = [];
  for (const keyword of Object.keys(schema)) {
    const kind = keywordValueKind(keyword);
    if (kind === undefined) continue;
    from.push(keyword);
    if (!types.includes(kind)) types.push(kind);
  }
  return { types, from };
}

interface Literals {
  enumValues?: Primitive[];
  constValue?: { value: Primitive };
}

function parseLiterals(located: Located, schema: Record<string, unknown>): Literals {
  const literals: Literals = {};
  if (schema.enum !== undefined) {
    const values = toPlainJson(schema.enum);
    const at = located.keywordPointer('enum');
    if (!Array.isArray(values) || values.length === 0)
      throw invalidSchema(at, '"enum" must be a non-empty array (an empty enum matches nothing)');
    if (!values.every(isPrimitive)) throw invalidSchema(at, '"enum" values must be JSON values');
    literals.enumValues = values;
  }
  if (Object.hasOwn(schema, 'const')) {
    const value = toPlainJson(schema.const);
    if (!isPrimitive(value))
      throw invalidSchema(located.keywordPointer('const'), '"const" must be a JSON value');
    if (literals.enumValues && !literals.enumValues.includes(value)) {
      throw invalidSchema(
        located.keywordPointer('const'),
        '"const" is not one of the "enum" values; no value can match',
      );
    }
    return { constValue: { value } };
  }
  return literals;
}

function literalsForType(literals: Literals, type: JsonType, nullable: boolean): Literals {
  const accepts = (value: Primitive) =>
    value === null ? nullable || type === 'null' : typeAccepts(type, value);
  if (literals.constValue) return { constValue: literals.constValue };
  if (literals.enumValues) return { enumValues: literals.enumValues.filter(accepts) };
  return {};
}

/**
 * Builds the typed node of one type. `whole` is false for one branch of a split multi-type schema:
 * the branch then takes only the keywords that apply to its type, and the union keeps the rest.
 */
function buildTyped(
  context: NormalizeContext,
  located: Located,
  schema: Record<string, unknown>,
  scope: Scope,
  spec: { type: JsonType; nullable: boolean; literals: Literals },
  whole: boolean,
): TypedNode {
  const { type } = spec;
  const node: TypedNode = { ...typedNode(located.pointer, type), nullable: spec.nullable, ...spec.literals };
  const properties: PropertyNode[] = [];
  const cutProperties: Array<{ name: string; pointer: string; cut: RecursionCut }> = [];
  let requiredNames: string[] = [];
  let itemsLocated: Located | undefined;
  let prefix: { located: Located[]; pointer: string } | undefined;

  for (const [keyword, value] of Object.entries(schema)) {
    if (SKIPPED_KEYWORDS.has(keyword)) continue;
    const at = located.keywordPointer(keyword);
    const entry: KeywordEntry = { keyword, value, pointer: at };
    if (isAnnotationKeyword(keyword)) {
      if (whole) node.annotations.push(entry);
      continue;
    }
    if (UNIVERSAL_CONSTRAINTS.has(keyword)) {
      if (whole) node.constraints.push(entry);
      continue;
    }
    if (!keywordAppliesTo(keyword, type)) {
      // Lossless: JSON Schema ignores e.g. `minLength` on a number.
      if (whole) context.changes.add(at, keyword, 'dropped', `Has no effect on ${type} values.`);
      continue;
    }
    const plain = value instanceof Located ? value.value : value;
    switch (keyword) {
      case 'properties':
        if (!isPlainObject(plain)) throw invalidSchema(at, '"properties" must be an object of schemas');
        for (const [name, child] of Object.entries(plain)) {
          const childLocated = locate(child, appendPointer(at, 'properties', name));
          const normalized = catchCut(() => context.normalize(childLocated, scope));
          if (normalized instanceof RecursionCut) {
            cutProperties.push({ name, pointer: childLocated.pointer, cut: normalized });
            continue;
          }
          properties.push({ name, pointer: childLocated.pointer, node: normalized, required: false });
        }
        break;
      case 'required':
        if (!Array.isArray(plain) || !plain.every((name) => typeof name === 'string')) {
          throw invalidSchema(at, '"required" must be an array of property names');
        }
        requiredNames = plain;
        break;
      case 'additionalProperties':
        node.additionalProperties = entry;
        break;
      case 'items':
      case 'prefixItems':
        if (Array.isArray(plain)) {
          // A tuple (`prefixItems`, or draft-07 `items: [...]`): described; items become the union of its members.
          node.constraints.push(entry);
          prefix = {
            located: plain.map((child, index) => locate(child, appendPointer(at, keyword, index))),
            pointer: appendPointer(at, keyword),
          };
        } else if (keyword === 'prefixItems') {
          throw invalidSchema(at, '"prefixItems" must be an array of schemas');
        } else if (plain === false) {
          node.constraints.push(entry);
        } else if (plain !== true) {
          itemsLocated = locate(value, appendPointer(at, 'items'));
        }
        break;
      default:
        checkConstraintValue(keyword, plain, at);
        node.constraints.push(entry);
    }
  }
  if (whole) node.constraints.push(...located.leftovers);

  if (type === 'object') {
    for (const { name, pointer, cut } of cutProperties) {
      // A required property cannot be left out: the whole object is cut one level further up.
      if (requiredNames.includes(name)) throw cut;
      context.changes.add(
        pointer,
        'properties',
        'recursion-unrolled',
        describeCut(cut, `the optional property "${name}" is left out`),
      );
    }
    requiredNames.forEach((name, index) => {
      const property = properties.find((candidate) => candidate.name === name);
      if (property) {
        property.required = true;
        return;
      }
      const at = appendPointer(located.keywordPointer('required'), 'required', index);
      properties.push({ name, pointer: at, node: unconstrainedNode(at), required: true });
      context.changes.add(
        at,
        'required',
        'added',
        `"${name}" is required but has no schema under "properties"; it was added as an unconstrained property.`,
      );
    });
    node.properties = properties;
  }
  if (type === 'array') {
    if (prefix) {
      const members = itemsLocated ? [...prefix.located, itemsLocated] : prefix.located;
      const tuple = new Located({ anyOf: members }, prefix.pointer);
      const normalized = catchCut(() => context.normalize(tuple, scope));
      if (normalized instanceof RecursionCut) cutArrayItems(context, node, normalized);
      else node.items = normalized;
    } else if (itemsLocated) {
      const items = itemsLocated;
      const normalized = catchCut(() => context.normalize(items, scope));
      if (normalized instanceof RecursionCut) cutArrayItems(context, node, normalized);
      else node.items = normalized;
    } else if (context.arrayItemsRequired) {
      node.items = unconstrainedNode(located.pointer);
      context.changes.add(
        located.pointer,
        'items',
        'added',
        'No "items" schema: the target needs one, so items can only be strings, numbers, booleans or null.',
      );
    }
  }
  return node;
}

/**
 * Normalizes a schema object that has no `$ref`, `allOf`, `anyOf` or `oneOf` and whose literals
 * are primitives: settles its type (declared, taken from its literals, or inferred from its
 * keywords) and splits a multi-type schema into a union with one branch per type.
 */
export function normalizeTyped(
  context: NormalizeContext,
  located: Located,
  schema: Record<string, unknown>,
  scope: Scope,
): SchemaNode {
  const literals = parseLiterals(located, schema);
  const literalValues = literals.constValue ? [literals.constValue.value] : literals.enumValues;
  const literalKeyword = literals.constValue ? 'const' : 'enum';
  let types: JsonType[];
  let splitKeyword: string | undefined;

  if (schema.type !== undefined) {
    const typePointer = located.keywordPointer('type');
    types = parseTypes(toPlainJson(schema.type), typePointer);
    splitKeyword = 'type';
    if (literalValues) {
      const reachable = literalValues.filter((value) => types.some((type) => typeAccepts(type, value)));
      if (reachable.length === 0) {
        throw invalidSchema(
          located.keywordPointer(literalKeyword),
          `no "${literalKeyword}" value has type ${JSON.stringify(schema.type)}; no value can match`,
        );
      }
      types = types.filter((type) => reachable.some((value) => typeAccepts(type, value)));
    }
  } else if (literalValues) {
    types = literalValues.map(primitiveType);
    splitKeyword = literalKeyword;
  } else {
    const inferred = inferTypesFromKeywords(schema);
    types = inferred.types.length > 0 ? inferred.types : [...UNCONSTRAINED_TYPES];
    context.changes.add(
      located.pointer,
      'type',
      'added',
      inferred.types.length > 0
        ? `No "type" given; ${inferred.types.join(' or ')} was inferred from ${inferred.from.join(', ')}. Values of other types can no longer be produced.`
        : 'No "type" given: the target needs one, so only a string, number, boolean or null can be produced here (not an object or array).',
    );
  }

  types = collapseTypes(types);
  const nonNull = types.filter((type) => type !== 'null');
  const acceptsNull = types.includes('null');
  if (nonNull.length <= 1) {
    const type = nonNull[0] ?? 'null';
    const nullable = type !== 'null' && acceptsNull;
    return buildTyped(
      context,
      located,
      schema,
      scope,
      { type, nullable, literals: literalsForType(literals, type, nullable) },
      true,
    );
  }

  if (splitKeyword !== undefined) {
    context.changes.add(
      located.keywordPointer(splitKeyword),
      splitKeyword,
      'union-rewritten',
      `Values of several types (${types.join(', ')}) became "anyOf" with one branch per type.`,
    );
  }
  const branches: SchemaNode[] = nonNull.map((type) =>
    buildTyped(
      context,
      located,
      schema,
      scope,
      { type, nullable: false, literals: literalsForType(literals, type, false) },
      false,
    ),
  );
  if (acceptsNull) branches.push(typedNode(located.pointer, 'null'));
  const entries = Object.entries(schema).map(([keyword, value]): KeywordEntry => ({
    keyword,
    value,
    pointer: located.keywordPointer(keyword),
  }));
  return {
    kind: 'union',
    pointer: located.pointer,
    branches,
    annotations: entries.filter((entry) => isAnnotationKeyword(entry.keyword)),
    constraints: [
      ...entries.filter((entry) => UNIVERSAL_CONSTRAINTS.has(entry.keyword)),
      ...located.leftovers,
    ],
  };
}
