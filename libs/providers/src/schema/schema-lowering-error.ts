/** Why a schema could not be lowered for a target. */
export type SchemaLoweringErrorCode =
  /** The schema refers back to itself, and the target has no way to express recursion. */
  | 'recursive-schema'
  /** The schema is not a valid JSON Schema, or no value could ever satisfy it. */
  | 'invalid-schema'
  /** A `$ref` points outside the document or at something that does not exist. */
  | 'unresolvable-ref'
  /** Nested deeper or larger than `MAX_SCHEMA_DEPTH` / `MAX_SCHEMA_NODES` (`schema-limits.ts`). */
  | 'schema-too-large';

/**
 * Thrown by `lowerJsonSchema` when the caller's schema cannot be sent to the target at all.
 * The message says what to change; `pointer` is where in the caller's original schema it happened.
 */
export class SchemaLoweringError extends Error {
  override readonly name = 'SchemaLoweringError';

  constructor(
    readonly code: SchemaLoweringErrorCode,
    /** JSON pointer into the caller's original schema, e.g. `/$defs/Node/properties/children/items`. */
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Shorthand for the most common failure: the caller's schema itself is malformed or unsatisfiable. */
export function invalidSchema(pointer: string, message: string): SchemaLoweringError {
  return new SchemaLoweringError(
    'invalid-schema',
    pointer,
    `Invalid schema at ${pointer || '/'}: ${message}`,
  );
}
