import { isRecord, type JsonObject } from './json';
import { sampleFromPattern } from './pattern-sample';

/** Beyond this depth optional properties are left out and arrays stay as short as allowed. */
const fullDepth = 4;
/** Hard stop for schemas with no finite instance (e.g. a required, non-nullable self reference). */
const maxDepth = 24;

const formatSamples: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  url: 'https://example.com',
};

interface Walk {
  depth: number;
  /** Refs being expanded on the current path; a repeat means recursion, so go minimal. */
  refs: readonly string[];
  /** Produce the smallest valid value: no optional properties, shortest arrays, null branches. */
  minimal: boolean;
  /** Distinguishes sibling array items so `uniqueItems` holds. */
  variant: number;
}

/**
 * Generates a small, deterministic instance of a schema. Understands JSON Schema (2020-12 and
 * draft-07: `$ref`/`$defs`/`definitions`, `anyOf`/`oneOf`/`allOf`, `const`, `enum`, type arrays,
 * `prefixItems`, string formats and `pattern`, numeric bounds and `multipleOf`, item and property
 * counts) and Gemini's OpenAPI subset (upper-case types, `nullable`, `propertyOrdering`).
 * Objects get every required property, plus the optional ones near the root.
 */
export function jsonFromSchema(schema: unknown): unknown {
  return new InstanceGenerator(schema).generate(schema, { depth: 0, refs: [], minimal: false, variant: 0 });
}

class InstanceGenerator {
  readonly #root: unknown;

  constructor(root: unknown) {
    this.#root = root;
  }

  generate(schema: unknown, walk: Walk): unknown {
    if (!isRecord(schema) || walk.depth > maxDepth) return null;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return schema.enum[walk.variant % schema.enum.length];
    if (typeof schema.$ref === 'string') return this.#generateRef(schema.$ref, walk);
    if (Array.isArray(schema.allOf)) return this.generate(mergeAllOf(schema), walk);
    const branches = Array.isArray(schema.anyOf)
      ? schema.anyOf
      : Array.isArray(schema.oneOf)
        ? schema.oneOf
        : undefined;
    if (branches !== undefined && branches.length > 0) {
      return this.generate(walk.minimal ? pickTerminalBranch(branches) : branches[0], {
        ...walk,
        depth: walk.depth + 1,
      });
    }
    switch (pickType(schema, walk.minimal)) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
        return numberFor(schema, true, walk.variant);
      case 'number':
        return numberFor(schema, false, walk.variant);
      case 'string':
        return stringFor(schema, walk.variant);
      case 'array':
        return this.#arrayFor(schema, walk);
      case 'object':
        return this.#objectFor(schema, walk);
      default:
        return null;
    }
  }

  #generateRef(ref: string, walk: Walk): unknown {
    const target = resolvePointer(this.#root, ref);
    const recursive = walk.refs.includes(ref);
    return this.generate(target, {
      ...walk,
      depth: walk.depth + 1,
      refs: [...walk.refs, ref],
      minimal: walk.minimal || recursive,
    });
  }

  #arrayFor(schema: JsonObject, walk: Walk): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const short = walk.minimal || walk.depth >= fullDepth;
    const minItems = typeof schema.minItems === 'number' ? schema.minItems : short ? 0 : 1;
    let count = Math.max(minItems, prefix.length);
    if (typeof schema.maxItems === 'number') count = Math.min(count, schema.maxItems);
    const items: unknown[] = [];
    for (let index = 0; index < count; index++) {
      const itemSchema = index < prefix.length ? prefix[index] : (schema.items ?? {});
      items.push(this.generate(itemSchema, { ...walk, depth: walk.depth + 1, variant: index }));
    }
    return items;
  }

  #objectFor(schema: JsonObject, walk: Walk): JsonObject {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : [],
    );
    const includeOptional = !walk.minimal && walk.depth < fullDepth;
    const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    const ordering = Array.isArray(schema.propertyOrdering)
      ? schema.propertyOrdering.filter((key) => typeof key === 'string')
      : [];
    const keys = [...new Set([...ordering, ...Object.keys(properties), ...required])];
    const result: JsonObject = {};
    let optionalBudget = includeOptional
      ? Number.POSITIVE_INFINITY
      : Math.max(0, minProperties - required.size);
    const childWalk: Walk = { ...walk, depth: walk.depth + 1, variant: 0 };
    for (const key of keys) {
      const isRequired = required.has(key);
      if (!isRequired) {
        if (!(key in properties) || optionalBudget <= 0) continue;
        optionalBudget -= 1;
      }
      const propertySchema =
        properties[key] ?? (isRecord(schema.additionalProperties) ? schema.additionalProperties : {});
      result[key] = this.generate(propertySchema, childWalk);
    }
    return result;
  }
}

/** Follows a local JSON pointer such as `#/$defs/Node` (or `#` for the root). */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const segments = ref
    .slice(1)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Shallow merge of `allOf` members: union of properties and required, first keyword wins otherwise. */
function mergeAllOf(schema: JsonObject): JsonObject {
  const { allOf, ...rest } = schema;
  const merged: JsonObject = { ...rest };
  const properties: JsonObject = isRecord(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<unknown>(Array.isArray(rest.required) ? rest.required : []);
  for (const member of Array.isArray(allOf) ? allOf : []) {
    if (!isRecord(member)) continue;
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties' && isRecord(value)) Object.assign(properties, value);
      else if (key === 'required' && Array.isArray(value)) value.forEach((name) => required.add(name));
      else if (!(key in merged)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** In minimal mode prefer a branch that ends recursion: null first, then any primitive, then no `$ref`. */
function pickTerminalBranch(branches: unknown[]): unknown {
  const typeOf = (branch: unknown): string | undefined =>
    isRecord(branch) && typeof branch.type === 'string' ? branch.type.toLowerCase() : undefined;
  return (
    branches.find((branch) => typeOf(branch) === 'null') ??
    branches.find((branch) => {
      const type = typeOf(branch);
      return type !== undefined && type !== 'object' && type !== 'array';
    }) ??
    branches.find((branch) => isRecord(branch) && !('$ref' in branch)) ??
    branches[0]
  );
}

function pickType(schema: JsonObject, minimal: boolean): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type.toLowerCase();
  if (Array.isArray(type)) {
    const names = type
      .filter((name): name is string => typeof name === 'string')
      .map((name) => name.toLowerCase());
    if (minimal && names.includes('null')) return 'null';
    return names.find((name) => name !== 'null') ?? names[0];
  }
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  if ('pattern' in schema || 'format' in schema || 'minLength' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return 'number';
  return undefined;
}

function numberFor(schema: JsonObject, integer: boolean, variant: number): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  // Draft-04 spelled exclusivity as a boolean beside minimum/maximum.
  const exclusiveMinimum =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum
      : schema.exclusiveMinimum === true
        ? minimum
        : undefined;
  const exclusiveMaximum =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum
      : schema.exclusiveMaximum === true
        ? maximum
        : undefined;
  const step =
    typeof schema.multipleOf === 'number' && schema.multipleOf > 0
      ? schema.multipleOf
      : integer
        ? 1
        : undefined;

  const isAllowed = (value: number): boolean =>
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (exclusiveMinimum === undefined || value > exclusiveMinimum) &&
    (exclusiveMaximum === undefined || value < exclusiveMaximum) &&
    (!integer || Number.isInteger(value)) &&
    (step === undefined || isMultiple(value, step));

  const lower = Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
  const upper = Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
  const start = Number.isFinite(lower) ? lower : Number.isFinite(upper) ? Math.min(upper, 1) - 10 : 1;
  const candidates: number[] = [];
  const preferred = Number.isFinite(lower) || Number.isFinite(upper) ? start : 1;
  for (const base of [preferred + variant, preferred, start]) {
    if (step !== undefined)
      candidates.push(Math.ceil(base / step) * step, Math.floor(base / step) * step + step);
    else candidates.push(integer ? Math.ceil(base) : base, base + 1, (base + upper) / 2);
  }
  if (step !== undefined && Number.isFinite(upper)) candidates.push(Math.floor(upper / step) * step);
  if (Number.isFinite(lower) && Number.isFinite(upper)) candidates.push((lower + upper) / 2);
  return (
    candidates.find((candidate) => Number.isFinite(candidate) && isAllowed(candidate)) ??
    (Number.isFinite(lower) ? lower : 1)
  );
}

function isMultiple(value: number, step: number): boolean {
  const quotient = value / step;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

function stringFor(schema: JsonObject, variant: number): string {
  const format = typeof schema.format === 'string' ? formatSamples[schema.format] : undefined;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  let value = format ?? (pattern !== undefined ? sampleFromPattern(pattern) : undefined);
  if (value === undefined) value = variant === 0 ? 'example' : `example-${variant}`;
  else if (variant > 0 && format === undefined && pattern === undefined) value = `${value}-${variant}`;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (value.length < minLength) value = value + 'x'.repeat(minLength - value.length);
  if (value.length > maxLength) value = value.slice(0, maxLength);
  return value;
}
