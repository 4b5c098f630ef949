import { isRecord, type JsonObject } from '../json';

const supportedFormats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

// Numeric and string-length constraints Anthropic's structured outputs do not support.
const unsupportedConstraints = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
];

/** Backreferences, lookaround and word boundaries are outside Anthropic's regex subset. */
const unsupportedRegexFeature = /\\[1-9]|\\k<|\(\?<?[=!]|\\b|\\B/;

/**
 * Checks an `output_config.format.schema` (or legacy `output_format.schema`) against Anthropic's
 * structured-output limits and returns a description of the first unsupported feature, or
 * undefined. Where Anthropic's exact wording is not public, the text names the feature and path.
 */
export function findOutputSchemaViolation(schema: unknown): string | undefined {
  if (!isRecord(schema)) return 'Schema must be a JSON object.';
  return new OutputSchemaWalker(schema).check(schema, '#', []);
}

class OutputSchemaWalker {
  readonly #root: JsonObject;

  constructor(root: JsonObject) {
    this.#root = root;
  }

  /** `refStack` holds the local refs being followed, to spot recursion. */
  check(schema: unknown, path: string, refStack: readonly string[]): string | undefined {
    if (!isRecord(schema))
      return typeof schema === 'boolean' ? undefined : `Schema at '${path}' must be an object.`;
    if (typeof schema.$ref === 'string') {
      const violation = this.#checkRef(schema.$ref, path, refStack);
      if (violation !== undefined) return violation;
    }
    if (Array.isArray(schema.allOf) && schema.allOf.some((member) => isRecord(member) && '$ref' in member)) {
      return `'allOf' combined with '$ref' is not supported (at '${path}').`;
    }
    const type = Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const keyword of unsupportedConstraints) {
      if (keyword in schema) {
        return `For '${String(type.find((name) => name !== 'null') ?? 'any')}' type, property '${keyword}' is not supported (at '${path}').`;
      }
    }
    if ('maxItems' in schema) return `For 'array' type, property 'maxItems' is not supported (at '${path}').`;
    if ('minItems' in schema && schema.minItems !== 0 && schema.minItems !== 1) {
      return `For 'array' type, 'minItems' values other than 0 and 1 are not supported (at '${path}').`;
    }
    if (
      Array.isArray(schema.enum) &&
      schema.enum.some((value) => typeof value === 'object' && value !== null)
    ) {
      return `Enum values must be strings, numbers, booleans or null; complex types are not supported (at '${path}').`;
    }
    if (typeof schema.format === 'string' && !supportedFormats.has(schema.format)) {
      return `String format '${schema.format}' is not supported (at '${path}'). Supported formats: ${[...supportedFormats].join(', ')}.`;
    }
    if (typeof schema.pattern === 'string' && unsupportedRegexFeature.test(schema.pattern)) {
      return `Regex backreferences, lookaround and word boundaries are not supported in 'pattern' (at '${path}').`;
    }
    const isObject = type.includes('object') || 'properties' in schema;
    if ('additionalProperties' in schema && schema.additionalProperties !== false) {
      return `For 'object' type, 'additionalProperties' must be set to false (at '${path}').`;
    }
    if (isObject && schema.additionalProperties !== false) {
      return `For 'object' type, 'additionalProperties' must be explicitly set to false (at '${path}').`;
    }
    return this.#checkChildren(schema, path, refStack);
  }

  #checkRef(ref: string, path: string, refStack: readonly string[]): string | undefined {
    if (!ref.startsWith('#')) return `External $ref is not supported: '${ref}' (at '${path}').`;
    if (refStack.includes(ref))
      return `Recursive schemas are not supported: '${ref}' refers back to itself (at '${path}').`;
    const target = resolveLocal(this.#root, ref);
    if (target === undefined)
      return `$ref '${ref}' does not resolve to a definition in the schema (at '${path}').`;
    return this.check(target, ref, [...refStack, ref]);
  }

  #checkChildren(schema: JsonObject, path: string, refStack: readonly string[]): string | undefined {
    const children: Array<[unknown, string]> = [];
    if (isRecord(schema.properties)) {
      for (const [key, value] of Object.entries(schema.properties))
        children.push([value, `${path}/properties/${key}`]);
    }
    if (schema.items !== undefined) children.push([schema.items, `${path}/items`]);
    for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      const members = schema[keyword];
      if (Array.isArray(members))
        members.forEach((member, index) => children.push([member, `${path}/${keyword}/${index}`]));
    }
    // Definitions are checked where they are referenced (so recursion is seen) and once on their own.
    if (path === '#') {
      for (const keyword of ['$defs', 'definitions']) {
        const definitions = schema[keyword];
        if (isRecord(definitions)) {
          for (const [name, value] of Object.entries(definitions))
            children.push([value, `#/${keyword}/${name}`]);
        }
      }
    }
    for (const [child, childPath] of children) {
      const violation = this.check(child, childPath, refStack);
      if (violation !== undefined) return violation;
    }
    return undefined;
  }
}

function resolveLocal(root: JsonObject, ref: string): unknown {
  let node: unknown = root;
  for (const segment of ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')) {
    const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isRecord(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}
