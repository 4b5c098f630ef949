import type { JsonSchema } from '../types/json-schema';

/** The dialects a caller's JSON Schema is lowered to. */
export type SchemaTarget = 'openai-strict' | 'anthropic' | 'gemini';

export type SchemaChangeAction =
  /** An unsupported keyword's constraint was written into `description`; it is only checked afterwards. */
  | 'moved-to-description'
  /** An optional property became required and nullable (OpenAI strict); nulls are removed again on output. */
  | 'made-required-nullable'
  /** A `$ref` was replaced by the schema it points to. */
  | 'ref-inlined'
  /** `oneOf`, a type array, `const` or similar was rewritten into what the target accepts. */
  | 'union-rewritten'
  /** A keyword was removed with no effect on what is enforced afterwards (e.g. `$schema`). */
  | 'dropped'
  /** A keyword the target requires was added (e.g. `additionalProperties:false`). */
  | 'added'
  /**
   * A recursive `$ref` was inlined again (targets without recursion), or the place where the
   * unrolled recursion stops: a branch, property or array that the deepest level leaves out.
   */
  | 'recursion-unrolled';

/** One entry of the change report: where, which keyword, what happened. */
export interface SchemaChange {
  /** JSON pointer into the caller's original schema, e.g. `/properties/tags/items`. */
  pointer: string;
  keyword: string;
  action: SchemaChangeAction;
  detail: string;
}

/** Options of `lowerJsonSchema`. */
export interface LoweringOptions {
  /**
   * Gemini and Anthropic accept no recursion: a recursive schema is unrolled this many levels deep
   * (an integer from 1 to 10; default 3), and the deepest level leaves the recursion out.
   * OpenAI strict mode keeps recursion and ignores this.
   */
  recursionDepth?: number;
}

export interface LoweredSchema {
  target: SchemaTarget;
  /** The schema to send; every keyword in it is one `targetKeywords[target]` lists. */
  schema: JsonSchema;
  /**
   * Everything the target will not enforce as written, in the order the pointers appear in the
   * original schema. Validate answers against the ORIGINAL schema to check what was only described.
   */
  changes: SchemaChange[];
  /**
   * Maps a value produced under the lowered schema back to the caller's shape
   * (e.g. drops the `null`s OpenAI strict had to emit for optional properties). Never mutates its input.
   */
  restore(value: unknown): unknown;
}
