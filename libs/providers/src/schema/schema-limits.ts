import type { ChatCompletionOptions } from '../types/options';
import { SchemaLoweringError } from './schema-lowering-error';

/**
 * Deepest nesting of a JSON Schema document, counting objects and arrays (the root object is
 * level 1). Lowering, validation and the SDKs' serializers recurse per level: far below the stack's
 * limit, far above real schemas (a property schema nested 30 objects deep is 60 levels).
 */
export const MAX_SCHEMA_DEPTH = 64;

/** Most JSON values (objects, arrays and leaves) in one JSON Schema document. */
export const MAX_SCHEMA_NODES = 10_000;

/**
 * What makes `schema` too deep or too large, with the limit, or undefined when it fits. Walked
 * iteratively, so a schema nested 100,000 levels deep is measured without overflowing the stack.
 */
export function schemaLimitProblem(schema: unknown): string | undefined {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  let nodes = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    nodes += 1;
    if (nodes > MAX_SCHEMA_NODES)
      return `has more than ${MAX_SCHEMA_NODES} values; a JSON Schema may have at most ${MAX_SCHEMA_NODES} (MAX_SCHEMA_NODES)`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH)
      return `is nested more than ${MAX_SCHEMA_DEPTH} levels deep; a JSON Schema may be nested at most ${MAX_SCHEMA_DEPTH} levels (MAX_SCHEMA_DEPTH)`;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

/** Throws `SchemaLoweringError` (`schema-too-large`) when `schema` exceeds the limits; `where` names it. */
export function assertSchemaWithinLimits(schema: unknown, where: string): void {
  const problem = schemaLimitProblem(schema);
  if (problem !== undefined) throw new SchemaLoweringError('schema-too-large', '', `${where} ${problem}`);
}

/** Checks every schema of a call (the response format's and each tool's parameters) before any is lowered or sent. */
export function assertCallSchemasWithinLimits(options: ChatCompletionOptions): void {
  const format = options.responseFormat;
  if (format?.type === 'json_schema') {
    if ('json_schema' in format)
      assertSchemaWithinLimits(format.json_schema.schema, 'response_format.json_schema.schema');
    else assertSchemaWithinLimits(format.schema, 'response_format.schema');
  }
  options.tools?.forEach((tool, index) =>
    assertSchemaWithinLimits(tool.parameters, `tools[${index}] (${tool.name}) parameters`),
  );
}
