import { isSameOrAncestorPointer } from './json-pointer';
import type { Scope } from './located';
import type { LoweringOptions } from './schema-change';

/**
 * How many levels of a recursive schema the targets without recursion (Gemini, Anthropic) get
 * when the caller does not say: a tree node, its children and their children.
 */
export const DEFAULT_RECURSION_DEPTH = 3;

/** Every level multiplies the lowered schema; past this the schema is too large to help a model. */
export const MAX_RECURSION_DEPTH = 10;

/** The unroll depth from the caller's options; a `RangeError` names the option and the allowed range. */
export function recursionDepthOf(options: LoweringOptions | undefined): number {
  const depth = options?.recursionDepth ?? DEFAULT_RECURSION_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_RECURSION_DEPTH) {
    throw new RangeError(
      `recursionDepth must be an integer from 1 to ${MAX_RECURSION_DEPTH}, got ${JSON.stringify(depth)}`,
    );
  }
  return depth;
}

/**
 * How many times the schema at `targetPointer` is already instantiated on the way to a `$ref` at
 * `refLocation` that points at it: 0 when the reference is not recursive.
 *
 * The scope lists every target inlined on the way (the root `''` first). A target the walk entered
 * by descending into it, not through a reference (e.g. `#/properties/node` referenced from inside
 * itself), is not in the scope yet but is one level: `scopeAfterInlining` then records it twice.
 */
export function recursionLevel(targetPointer: string, refLocation: string, scope: Scope): number {
  const inlined = scope.filter((pointer) => pointer === targetPointer).length;
  if (inlined > 0) return inlined;
  return isSameOrAncestorPointer(targetPointer, refLocation) ? 1 : 0;
}

/** The scope below an inlined reference; see `recursionLevel`. */
export function scopeAfterInlining(targetPointer: string, refLocation: string, scope: Scope): Scope {
  const enteredByDescending =
    !scope.includes(targetPointer) && isSameOrAncestorPointer(targetPointer, refLocation);
  return enteredByDescending ? [...scope, targetPointer, targetPointer] : [...scope, targetPointer];
}

/**
 * Thrown where a recursive reference would go one level deeper than the unroll depth. The nearest
 * enclosing place that can leave the recursion out catches it: an `anyOf` branch (dropped), an
 * array's items (the array must be empty there), an optional property (left out). A required
 * property or a non-empty array cannot, so the cut moves up to the next such place. Never escapes
 * the lowering: at the root it becomes a `SchemaLoweringError`.
 */
export class RecursionCut extends Error {
  constructor(
    /** The `$ref` text, e.g. `#/$defs/Node`. */
    readonly ref: string,
    /** Pointer of the `$ref` keyword in the original schema. */
    readonly refPointer: string,
    readonly depth: number,
  ) {
    super(`recursion cut at ${refPointer || '/'}`);
  }
}

/** The change-report text for a place that absorbed a cut: `outcome` says what happens there. */
export function describeCut(cut: RecursionCut, outcome: string): string {
  return (
    `Recursion through "$ref": ${JSON.stringify(cut.ref)} (at ${cut.refPointer || '/'}) is unrolled ${cut.depth} ` +
    `level${cut.depth === 1 ? '' : 's'} deep; at the deepest level ${outcome}, so deeper levels are cut. ` +
    'Answers are still validated against the original schema, where deeper nesting stays valid.'
  );
}

/** The change-report text for a recursive reference that was inlined again. */
export function describeUnroll(ref: string, depth: number): string {
  return (
    `Recursive: replaced by the schema at ${ref} again, up to ${depth} level${depth === 1 ? '' : 's'} deep ` +
    '(the recursionDepth option); the change where the recursion is cut says what the deepest level allows.'
  );
}
