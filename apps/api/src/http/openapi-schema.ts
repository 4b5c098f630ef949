import { z } from 'zod';

/** A zod schema as an OpenAPI 3.0 schema object (what the client sends, i.e. the input side). */
export function openApiSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

/** A zod schema as the OpenAPI schema of a response (the output side). */
export function openApiResponseSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'output',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}
