import { isSchemaObject, type SchemaObject } from './walk-schema';

/**
 * Test helper: reads a lowered Gemini schema (OpenAPI 3.0 subset) as JSON Schema, so Ajv and the
 * value generator can use it: `nullable: true` becomes a `"null"` type (and a null enum entry, as
 * Gemini's `nullable` admits null next to a string enum). Other Gemini-only keywords
 * (`propertyOrdering`) validate nothing and are left for Ajv to ignore.
 */
export function geminiAsJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiAsJsonSchema);
  if (!isSchemaObject(schema)) return schema;
  const converted: SchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'nullable') continue;
    if (keyword === 'properties' && isSchemaObject(value)) {
      converted.properties = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, geminiAsJsonSchema(child)]),
      );
    } else if (keyword === 'items' || keyword === 'anyOf') {
      converted[keyword] = geminiAsJsonSchema(value);
    } else {
      converted[keyword] = value;
    }
  }
  if (schema.nullable === true) {
    converted.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) converted.enum = [...schema.enum, null];
  }
  return converted;
}

/** How deeply schema objects nest through `properties`, `items` and `anyOf` (a leaf is 1). */
export function schemaNesting(schema: unknown): number {
  if (!isSchemaObject(schema)) return 0;
  const children: unknown[] = [];
  if (isSchemaObject(schema.properties)) children.push(...Object.values(schema.properties));
  if (schema.items !== undefined) children.push(schema.items);
  if (Array.isArray(schema.anyOf)) children.push(...schema.anyOf);
  if (isSchemaObject(schema.$defs)) children.push(...Object.values(schema.$defs));
  return 1 + Math.max(0, ...children.map(schemaNesting));
}
