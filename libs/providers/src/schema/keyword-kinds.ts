import type { JsonType } from './json-value';

/**
 * How lowering treats each JSON Schema keyword, independent of the target.
 * Keywords that are neither structural nor constraints are annotations: they never reject a value,
 * so a target that does not accept them can drop them without weakening validation.
 */

/** Keywords the lowering rebuilds itself (types, literals, applicators, references). */
export const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
]);

/** Keywords that constrain values of one kind only; they also let lowering infer a missing `type`. */
const KEYWORD_APPLIES_TO: Readonly<Record<string, 'string' | 'number' | 'array' | 'object'>> = {
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  contentEncoding: 'string',
  contentMediaType: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  items: 'array',
  prefixItems: 'array',
  additionalItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  contains: 'array',
  minContains: 'array',
  maxContains: 'array',
  unevaluatedItems: 'array',
  properties: 'object',
  required: 'object',
  additionalProperties: 'object',
  patternProperties: 'object',
  propertyNames: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  dependentRequired: 'object',
  dependentSchemas: 'object',
  dependencies: 'object',
  unevaluatedProperties: 'object',
};

/** Constraints that apply to any value; on a union they stay on the union itself. */
export const UNIVERSAL_CONSTRAINTS: ReadonlySet<string> = new Set(['not', 'if', 'then', 'else']);

/**
 * Keywords only the lowering may set (Gemini's `nullable`, `propertyOrdering`). In the caller's
 * schema they are not JSON Schema, so validation ignores them; keeping them would make the target
 * enforce something the caller's schema does not say.
 */
export const LOWERING_OWNED_KEYWORDS: ReadonlySet<string> = new Set(['nullable', 'propertyOrdering']);

export function isConstraintKeyword(keyword: string): boolean {
  return keyword in KEYWORD_APPLIES_TO || keyword === 'format' || UNIVERSAL_CONSTRAINTS.has(keyword);
}

export function isAnnotationKeyword(keyword: string): boolean {
  return !STRUCTURAL_KEYWORDS.has(keyword) && !isConstraintKeyword(keyword);
}

/** The kind of value a keyword implies when a schema has no `type` (`format` usually means a string). */
export function keywordValueKind(keyword: string): 'string' | 'number' | 'array' | 'object' | undefined {
  return keyword === 'format' ? 'string' : KEYWORD_APPLIES_TO[keyword];
}

/** Whether a keyword has any effect on values of `type` (formats exist for strings and numbers). */
export function keywordAppliesTo(keyword: string, type: JsonType): boolean {
  if (keyword === 'format') return type === 'string' || type === 'number' || type === 'integer';
  const kind = KEYWORD_APPLIES_TO[keyword];
  if (kind === undefined) return true;
  if (kind === 'number') return type === 'number' || type === 'integer';
  return kind === type;
}
