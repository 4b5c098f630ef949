import { isRecord } from '../json';

/** One problem found while decoding `responseSchema` into Gemini's `Schema` message. */
export interface SchemaFieldViolation {
  /** Proto field path, e.g. `generation_config.response_schema.properties[0].value`. */
  field: string;
  description: string;
}

/**
 * Fields of Gemini's OpenAPI-subset `Schema` message, in JSON (camelCase) and proto (snake_case)
 * spelling, mapped to the proto name used in error paths.
 */
const schemaFields: Record<string, string> = {
  type: 'type',
  format: 'format',
  title: 'title',
  description: 'description',
  nullable: 'nullable',
  enum: 'enum',
  maxItems: 'max_items',
  max_items: 'max_items',
  minItems: 'min_items',
  min_items: 'min_items',
  items: 'items',
  properties: 'properties',
  required: 'required',
  propertyOrdering: 'property_ordering',
  property_ordering: 'property_ordering',
  minProperties: 'min_properties',
  min_properties: 'min_properties',
  maxProperties: 'max_properties',
  max_properties: 'max_properties',
  minLength: 'min_length',
  min_length: 'min_length',
  maxLength: 'max_length',
  max_length: 'max_length',
  pattern: 'pattern',
  minimum: 'minimum',
  maximum: 'maximum',
  anyOf: 'any_of',
  any_of: 'any_of',
  default: 'default',
  example: 'example',
};

const typeNames = new Set([
  'TYPE_UNSPECIFIED',
  'STRING',
  'NUMBER',
  'INTEGER',
  'BOOLEAN',
  'ARRAY',
  'OBJECT',
  'NULL',
]);

const typeProto = 'type.googleapis.com/google.ai.generativelanguage.v1beta.Type';

/**
 * Decodes `responseSchema` like Google's JSON→proto parser: every key outside the `Schema`
 * message (`additionalProperties`, `$ref`, `$defs`, `$schema`, `oneOf`, …) is an
 * `Unknown name … Cannot find field.` error, and a `type` must be one enum name (no arrays).
 * All problems are reported, as the real parser does.
 */
export function findSchemaParseViolations(
  schema: unknown,
  path = 'generation_config.response_schema',
): SchemaFieldViolation[] {
  const violations: SchemaFieldViolation[] = [];
  walk(schema, path, violations);
  return violations;
}

function walk(schema: unknown, path: string, violations: SchemaFieldViolation[]): void {
  if (!isRecord(schema)) {
    violations.push({
      field: path,
      description: `Invalid value at '${path}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), ${JSON.stringify(schema)}`,
    });
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    const field = schemaFields[key];
    if (field === undefined) {
      violations.push({
        field: path,
        description: `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`,
      });
      continue;
    }
    if (field === 'type' && (typeof value !== 'string' || !typeNames.has(value.toUpperCase()))) {
      violations.push({
        field: `${path}.type`,
        description: Array.isArray(value)
          ? `Invalid JSON payload received. Proto field is not repeating, cannot start list at '${path}.type'.`
          : `Invalid value at '${path}.type' (${typeProto}), ${JSON.stringify(value)}`,
      });
    } else if (field === 'enum' && Array.isArray(value)) {
      value.forEach((entry, index) => {
        if (typeof entry !== 'string') {
          violations.push({
            field: `${path}.enum[${index}]`,
            description: `Invalid value at '${path}.enum[${index}]' (TYPE_STRING), ${JSON.stringify(entry)}`,
          });
        }
      });
    } else if (field === 'items') {
      walk(value, `${path}.items`, violations);
    } else if (field === 'any_of' && Array.isArray(value)) {
      value.forEach((member, index) => walk(member, `${path}.any_of[${index}]`, violations));
    } else if (field === 'properties' && isRecord(value)) {
      // Proto maps are addressed by entry position in Google's error paths.
      Object.values(value).forEach((member, index) =>
        walk(member, `${path}.properties[${index}].value`, violations),
      );
    }
  }
}

/**
 * Semantic checks the API applies after decoding: an OBJECT needs non-empty `properties`, and
 * `required` may only name defined properties. Returns messages in Google's `* Field: problem` form.
 */
export function findSchemaSemanticViolations(
  schema: unknown,
  path = 'generation_config.response_schema',
): string[] {
  if (!isRecord(schema)) return [];
  const problems: string[] = [];
  const type = typeof schema.type === 'string' ? schema.type.toUpperCase() : undefined;
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (type === 'OBJECT' && (properties === undefined || Object.keys(properties).length === 0)) {
    problems.push(`* GenerateContentRequest.${path}.properties: should be non-empty for OBJECT type`);
  }
  if (Array.isArray(schema.required)) {
    schema.required.forEach((name, index) => {
      if (typeof name !== 'string' || properties === undefined || !(name in properties)) {
        problems.push(`* GenerateContentRequest.${path}.required[${index}]: property is not defined`);
      }
    });
  }
  if (properties !== undefined) {
    Object.values(properties).forEach((member, index) =>
      problems.push(...findSchemaSemanticViolations(member, `${path}.properties[${index}].value`)),
    );
  }
  if (schema.items !== undefined)
    problems.push(...findSchemaSemanticViolations(schema.items, `${path}.items`));
  const anyOf = schema.anyOf ?? schema.any_of;
  if (Array.isArray(anyOf))
    anyOf.forEach((member, index) =>
      problems.push(...findSchemaSemanticViolations(member, `${path}.any_of[${index}]`)),
    );
  return problems;
}
