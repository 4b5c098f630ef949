import { isPlainObject } from './json-value';

/** A keyword whose value came from somewhere else than the node it now sits on. */
export interface KeywordEntry {
  keyword: string;
  value: unknown;
  /** Pointer of the node in the ORIGINAL schema that carried the keyword. */
  pointer: string;
}

/** Pointers of the definitions expanded on the way to a node (used to detect recursion). */
export type Scope = readonly string[];

/**
 * A piece of the caller's schema together with where it lives in the original document.
 *
 * Merging `allOf`, inlining `$ref` and distributing `anyOf` build new schema objects out of parts
 * that come from different places. Children inside such built objects are stored as `Located`
 * values, so every change can still be reported at its original pointer.
 */
export class Located {
  constructor(
    readonly value: unknown,
    readonly pointer: string,
    /** For built objects: the original pointer of each top-level keyword that did not come from `pointer`. */
    readonly keywordPointers: ReadonlyMap<string, string> = new Map(),
    /** Constraints that could not be merged into `value`; they end up in the description. */
    readonly leftovers: readonly KeywordEntry[] = [],
    /**
     * The definitions expanded to reach this piece, when it differs from its new parent's: after a
     * merge, siblings may come from different `$ref` expansions.
     */
    readonly scope?: Scope,
  ) {}

  keywordPointer(keyword: string): string {
    return this.keywordPointers.get(keyword) ?? this.pointer;
  }
}

/** Wraps a raw child at its natural pointer unless it already knows where it comes from. */
export function locate(value: unknown, pointer: string, scope?: Scope): Located {
  return value instanceof Located ? value : new Located(value, pointer, undefined, undefined, scope);
}

/**
 * Schema objects the lowering built itself (e.g. the `allOf` of two property schemas merged under
 * one name). Rewriting them is not a change the caller made a keyword for, so it is not reported.
 */
const syntheticSchemas = new WeakSet<object>();

export function markSynthetic<T extends object>(schema: T): T {
  syntheticSchemas.add(schema);
  return schema;
}

export function isSynthetic(schema: object): boolean {
  return syntheticSchemas.has(schema);
}

/** A deep copy of JSON-shaped data with every `Located` wrapper removed. */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof Located) return toPlainJson(value.value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, toPlainJson(child)]));
  }
  return value;
}
