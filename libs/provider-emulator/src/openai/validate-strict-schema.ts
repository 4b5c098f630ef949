import { isRecord, type JsonObject } from '../json';

/** One broken strict-mode rule: where (`context`, a path of keys) and what. */
export interface StrictSchemaViolation {
  /** Path as OpenAI prints it, e.g. `['properties', 'organizations', 'items']`; undefined for root-type errors. */
  context: string[] | undefined;
  message: string;
}

// Keywords OpenAI's structured outputs reject in strict mode (the SDK's transform lists these too).
const unsupportedKeywords = new Set([
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  'contentEncoding',
  'contentMediaType',
  'minLength',
  'maxLength',
]);

const supportedTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const supportedFormats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Checks a `json_schema` (or strict function `parameters`) against OpenAI's strict-mode rules and
 * returns the first violation, in the order OpenAI reports them: root type first, then a
 * depth-first walk of the schema.
 */
export function findStrictSchemaViolation(schema: unknown): StrictSchemaViolation | undefined {
  if (!isRecord(schema) || schema.type !== 'object') {
    const type = isRecord(schema) && typeof schema.type === 'string' ? schema.type : 'None';
    return {
      context: undefined,
      message: `schema must be a JSON Schema of 'type: "object"', got 'type: "${type}"'.`,
    };
  }
  return new StrictWalker(schema).check(schema, []);
}

/** Renders a path as the Python tuple OpenAI prints: `()`, `('items',)`, `('properties', 'a')`. */
export function formatContext(context: readonly string[]): string {
  if (context.length === 0) return '()';
  const items = context.map((segment) => `'${segment}'`);
  return context.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

/** The full error message OpenAI returns for a violation. */
export function strictSchemaErrorMessage(subject: string, violation: StrictSchemaViolation): string {
  const where = violation.context === undefined ? '' : `In context=${formatContext(violation.context)}, `;
  return `Invalid schema for ${subject}: ${where}${violation.message}`;
}

class StrictWalker {
  readonly #root: JsonObject;

  constructor(root: JsonObject) {
    this.#root = root;
  }

  check(schema: unknown, path: string[]): StrictSchemaViolation | undefined {
    if (!isRecord(schema)) return { context: path, message: 'schema must be a JSON Schema object.' };
    for (const keyword of Object.keys(schema)) {
      if (unsupportedKeywords.has(keyword))
        return { context: path, message: `'${keyword}' is not permitted.` };
    }
    return (
      this.#checkDefinitions(schema, path) ??
      ('$ref' in schema ? this.#checkRef(schema.$ref, path) : undefined) ??
      this.#checkBody(schema, path)
    );
  }

  #checkDefinitions(schema: JsonObject, path: string[]): StrictSchemaViolation | undefined {
    for (const keyword of ['$defs', 'definitions']) {
      const definitions = schema[keyword];
      if (!isRecord(definitions)) continue;
      for (const [name, definition] of Object.entries(definitions)) {
        const violation = this.check(definition, [...path, keyword, name]);
        if (violation !== undefined) return violation;
      }
    }
    return undefined;
  }

  #checkRef(ref: unknown, path: string[]): StrictSchemaViolation | undefined {
    if (typeof ref !== 'string') return { context: path, message: "'$ref' must be a string." };
    if (ref === '#') return undefined;
    const local = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (local === null) {
      return {
        context: path,
        message: `'$ref' '${ref}' is not supported: only local references to '#/$defs/...' are allowed.`,
      };
    }
    const definitions = this.#root[local[1]!];
    const name = decodeURIComponent(local[2]!).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(definitions) || !(name in definitions)) {
      return {
        context: path,
        message: `reference to component '${name}' which was not found in the schema.`,
      };
    }
    return undefined;
  }

  #checkBody(schema: JsonObject, path: string[]): StrictSchemaViolation | undefined {
    if ('$ref' in schema) return undefined;
    if (Array.isArray(schema.anyOf)) {
      for (const [index, branch] of schema.anyOf.entries()) {
        const violation = this.check(branch, [...path, 'anyOf', String(index)]);
        if (violation !== undefined) return violation;
      }
      return undefined;
    }
    if (!('type' in schema)) {
      // An enum or const fully describes its values; everything else must name a type.
      return 'enum' in schema || 'const' in schema
        ? undefined
        : { context: path, message: "schema must have a 'type' key." };
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const type of types) {
      if (typeof type !== 'string' || !supportedTypes.has(type)) {
        return { context: path, message: `type ${JSON.stringify(type)} is not supported.` };
      }
    }
    if (types.includes('object')) {
      const violation = this.#checkObject(schema, path);
      if (violation !== undefined) return violation;
    }
    if (types.includes('array')) {
      if (!('items' in schema))
        return { context: path, message: "'items' is required to be supplied for an array schema." };
      const violation = this.check(schema.items, [...path, 'items']);
      if (violation !== undefined) return violation;
    }
    if (
      types.includes('string') &&
      typeof schema.format === 'string' &&
      !supportedFormats.has(schema.format)
    ) {
      return { context: path, message: `'format' '${schema.format}' is not supported.` };
    }
    return undefined;
  }

  #checkObject(schema: JsonObject, path: string[]): StrictSchemaViolation | undefined {
    if (schema.additionalProperties !== false) {
      return { context: path, message: "'additionalProperties' is required to be supplied and to be false." };
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const keys = Object.keys(properties);
    const required = Array.isArray(schema.required) ? schema.required : undefined;
    const requiredRule =
      "'required' is required to be supplied and to be an array including every key in properties.";
    const missing = keys.find((key) => required === undefined || !required.includes(key));
    if (missing !== undefined) return { context: path, message: `${requiredRule} Missing '${missing}'.` };
    const extra = required?.find((key) => typeof key !== 'string' || !(key in properties));
    if (extra !== undefined)
      return { context: path, message: `${requiredRule} Extra required key '${String(extra)}' supplied.` };
    for (const key of keys) {
      const violation = this.check(properties[key], [...path, 'properties', key]);
      if (violation !== undefined) return violation;
    }
    return undefined;
  }
}
