import { Ajv2020 } from 'ajv/dist/2020';

/** What the editor says about the schema text as it is typed. */
export type SchemaCheck =
  | { status: 'valid'; schema: Record<string, unknown> }
  | { status: 'empty' | 'invalid-json' | 'not-an-object' | 'invalid-schema'; message: string };

// One validator of schemas against the 2020-12 meta-schema (the API's default dialect). validateSchema
// checks the schema's own shape without compiling it, so typing never runs generated code.
let metaValidator: Ajv2020 | undefined;

/**
 * Checks the editor's text: it must parse as JSON, be an object, and be a valid JSON Schema. The
 * first problem is named with where it is (the parser's position, or the schema's JSON pointer).
 */
export function checkSchemaText(text: string): SchemaCheck {
  if (text.trim() === '') return { status: 'empty', message: 'Write a JSON Schema (a JSON object).' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      status: 'invalid-json',
      message: `Not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { status: 'not-an-object', message: 'A JSON Schema here is a JSON object ({ … }).' };
  const schema = value as Record<string, unknown>;
  // `$schema` only names a dialect; the API validates draft-07 and 2019-09 too, so it is not checked here.
  const { $schema: _dialect, ...body } = schema;
  metaValidator ??= new Ajv2020({ strict: false, logger: false, validateFormats: false });
  if (!metaValidator.validateSchema(body)) {
    const [first] = metaValidator.errors ?? [];
    const where = first?.instancePath === '' || first === undefined ? 'the root' : first.instancePath;
    return {
      status: 'invalid-schema',
      message: `Not a valid JSON Schema: at ${where}, ${first?.message ?? 'the schema is invalid'}.`,
    };
  }
  return { status: 'valid', schema };
}
