import type { JsonSchema } from '../types/json-schema';
import type { ChangeLog } from './change-log';
import { appendPointer } from './json-pointer';
import { compactJson, isPlainObject, isPrimitive } from './json-value';
import { isAnnotationKeyword, UNIVERSAL_CONSTRAINTS } from './keyword-kinds';
import { isSynthetic, type KeywordEntry, Located, locate, type Scope, toPlainJson } from './located';
import { mergeSchemas } from './merge-all-of';
import { type NormalizeContext, normalizeTyped } from './normalize-typed';
import {
  describeCut,
  describeUnroll,
  RecursionCut,
  recursionLevel,
  scopeAfterInlining,
} from './recursion-unroll';
import { resolveLocalRef, resolvePointer } from './resolve-refs';
import type { RefNode, SchemaNode, TypedNode, UnionNode } from './schema-node';
import { invalidSchema, SchemaLoweringError } from './schema-lowering-error';
import { schemaForValue } from './schema-for-value';

export interface NormalizeOptions {
  /**
   * `keep-defs`: references stay references to (possibly hoisted) `$defs`, recursion allowed (OpenAI).
   * `inline`: every reference is replaced by its target; recursion is unrolled (Anthropic, Gemini).
   */
  refPolicy: 'keep-defs' | 'inline';
  /** `inline` only: how many levels deep a recursive schema is unrolled before the recursion is cut. */
  recursionDepth: number | undefined;
  arrayItemsRequired: boolean;
  /** Target name used in error messages. */
  targetName: string;
}

export interface NormalizedDefinition {
  name: string;
  node: SchemaNode;
}

export interface NormalizedSchema {
  root: SchemaNode;
  /** Definitions still referenced by `RefNode`s, in the order they were first referenced. */
  definitions: NormalizedDefinition[];
}

/** Inlining can blow a small schema up exponentially; past this many nodes lowering gives up. */
const MAX_NODES = 20_000;

/** A name usable in `#/$defs/<name>` without escaping. */
function definitionBaseName(pointer: string): string {
  const match = /^\/(?:\$defs|definitions)\/([^/]+)$/.exec(pointer);
  const raw = match?.[1] ?? `ref${pointer}`;
  return (
    raw
      .replace(/~1/g, '_')
      .replace(/~0/g, '_')
      .replace(/[^A-Za-z0-9_.-]/g, '_') || 'definition'
  );
}

function withoutKeywords(
  schema: Record<string, unknown>,
  keywords: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([keyword]) => !keywords.includes(keyword)));
}

class Normalizer implements NormalizeContext {
  readonly arrayItemsRequired: boolean;
  /** Definition pointer → name under the lowered `$defs`, for references that stay references. */
  private readonly definitions = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  /** Targets of references that were inlined: their definitions are used even if no `$ref` is kept. */
  private readonly inlinedTargets = new Set<string>();
  private nodeCount = 0;

  constructor(
    private readonly root: JsonSchema,
    private readonly options: NormalizeOptions,
    readonly changes: ChangeLog,
  ) {
    this.arrayItemsRequired = options.arrayItemsRequired;
  }

  run(): NormalizedSchema {
    const definitionKeywords = ['$defs', 'definitions'].filter((keyword) => this.root[keyword] !== undefined);
    if (this.options.refPolicy === 'inline') {
      for (const keyword of definitionKeywords) {
        this.changes.add('', keyword, 'dropped', 'Definitions were inlined wherever they are referenced.');
      }
    }
    const rootLocated = new Located(withoutKeywords(this.root, definitionKeywords), '');
    // A root that is only a reference is inlined even when refs are kept: OpenAI needs an object at the root.
    const root = this.normalizeRoot(rootLocated);
    const definitions: NormalizedDefinition[] = [];
    // Definitions reached while normalizing other definitions are appended to the map as we go.
    for (const [pointer, name] of this.definitions) {
      const target = resolvePointer(this.root, pointer, (missing) =>
        invalidSchema(missing, 'a referenced definition disappeared'),
      );
      definitions.push({ name, node: this.normalize(new Located(target.value, pointer), [pointer]) });
    }
    if (this.options.refPolicy === 'keep-defs') this.reportUnusedDefinitions(definitionKeywords);
    return { root, definitions };
  }

  private normalizeRoot(rootLocated: Located): SchemaNode {
    try {
      return this.normalizeNode(rootLocated, [''], true);
    } catch (error) {
      if (!(error instanceof RecursionCut)) throw error;
      throw new SchemaLoweringError(
        'recursive-schema',
        error.refPointer,
        `The schema is recursive: "$ref": ${JSON.stringify(error.ref)} at ${error.refPointer || '/'} refers back to a schema ` +
          `that contains it, and ${this.options.targetName} accepts no recursion, so it is unrolled ${error.depth} levels deep. ` +
          'But no level can leave the recursion out: every path through it is a required property or an array with ' +
          'minItems ≥ 1, so no finite answer exists. Make one link optional (not required, nullable via anyOf with null, ' +
          'or an array that may be empty), or use OpenAI strict mode, which supports recursion.',
      );
    }
  }

  private reportUnusedDefinitions(definitionKeywords: readonly string[]): void {
    for (const keyword of definitionKeywords) {
      const definitions = this.root[keyword];
      if (!isPlainObject(definitions)) continue;
      for (const name of Object.keys(definitions)) {
        const pointer = appendPointer('', keyword, name);
        if (!this.definitions.has(pointer) && !this.inlinedTargets.has(pointer)) {
          this.changes.add(pointer, keyword, 'dropped', 'Never referenced, so it is not sent.');
        }
      }
    }
  }

  normalize(located: Located, scope: Scope): SchemaNode {
    return this.normalizeNode(located, scope, false);
  }

  private normalizeNode(located: Located, parentScope: Scope, inlineRef: boolean): SchemaNode {
    const scope = located.scope ?? parentScope;
    this.nodeCount += 1;
    if (this.nodeCount > MAX_NODES) {
      throw invalidSchema(
        located.pointer,
        `the schema expands to more than ${MAX_NODES} subschemas once references are inlined; reuse fewer definitions or simplify it`,
      );
    }
    const schema = this.schemaObject(located);
    if (schema.$ref !== undefined) return this.normalizeRef(located, schema, scope, inlineRef);
    if (schema.allOf !== undefined) {
      if (!isSynthetic(schema)) {
        this.changes.add(
          located.keywordPointer('allOf'),
          'allOf',
          'union-rewritten',
          'The "allOf" schemas were merged into one schema.',
        );
      }
      return this.mergeAndNormalize([located], located.pointer, scope);
    }
    if (schema.anyOf !== undefined || schema.oneOf !== undefined)
      return this.normalizeUnion(located, schema, scope, true);
    const complexLiteral = this.rewriteComplexLiterals(located, schema, scope);
    return complexLiteral ?? normalizeTyped(this, located, schema, scope);
  }

  private schemaObject(located: Located): Record<string, unknown> {
    const value = located.value;
    if (value === true) return {};
    if (value === false) return { not: {} };
    if (!isPlainObject(value))
      throw invalidSchema(
        located.pointer,
        `expected a schema (an object or a boolean), got ${compactJson(value)}`,
      );
    return value;
  }

  private isRecursive(targetPointer: string, located: Located, scope: Scope): boolean {
    return recursionLevel(targetPointer, located.pointer, scope) > 0;
  }

  /**
   * `inline` policy, a recursive reference: inlined again below the unroll depth (reported once per
   * reference), otherwise a `RecursionCut` for the nearest enclosing place that can leave it out.
   */
  private unrollOrCut(
    ref: string,
    refPointer: string,
    targetPointer: string,
    located: Located,
    scope: Scope,
  ): void {
    const depth = this.options.recursionDepth ?? 1;
    if (recursionLevel(targetPointer, located.pointer, scope) >= depth) {
      throw new RecursionCut(ref, refPointer, depth);
    }
    this.changes.add(refPointer, '$ref', 'recursion-unrolled', describeUnroll(ref, depth));
  }

  /**
   * At the cut, a reference whose target plainly accepts null (`type` lists `"null"`, nothing
   * else restricts it) becomes null instead of cutting an enclosing property or array.
   */
  private nullInsteadOfCut(cut: RecursionCut, target: unknown, pointer: string): TypedNode | undefined {
    if (!isPlainObject(target)) return undefined;
    const type = toPlainJson(target.type);
    const acceptsNull = type === 'null' || (Array.isArray(type) && type.includes('null'));
    const restricting = ['enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', '$ref', 'if'];
    if (!acceptsNull || restricting.some((keyword) => Object.hasOwn(target, keyword))) return undefined;
    this.changes.add(
      cut.refPointer,
      '$ref',
      'recursion-unrolled',
      describeCut(cut, 'this reference is null (the schema it points to allows null)'),
    );
    return { kind: 'typed', pointer, type: 'null', nullable: false, annotations: [], constraints: [] };
  }

  private refNode(targetPointer: string, pointer: string): RefNode {
    if (targetPointer === '')
      return { kind: 'ref', pointer, definition: undefined, annotations: [], constraints: [] };
    let name = this.definitions.get(targetPointer);
    if (name === undefined) {
      const base = definitionBaseName(targetPointer);
      name = base;
      for (let suffix = 2; this.usedNames.has(name); suffix += 1) name = `${base}_${suffix}`;
      this.usedNames.add(name);
      this.definitions.set(targetPointer, name);
    }
    return { kind: 'ref', pointer, definition: name, annotations: [], constraints: [] };
  }

  private normalizeRef(
    located: Located,
    schema: Record<string, unknown>,
    scope: Scope,
    forceInline: boolean,
  ): SchemaNode {
    const ref = toPlainJson(schema.$ref);
    const refPointer = located.keywordPointer('$ref');
    if (typeof ref !== 'string') throw invalidSchema(refPointer, '"$ref" must be a string');
    const target = resolveLocalRef(this.root, ref, refPointer);
    // Nested definitions are only reachable through references, which resolve against the root.
    const siblings = withoutKeywords(schema, ['$ref', '$defs', 'definitions']);
    const hasSiblings = Object.keys(siblings).length > 0 || located.leftovers.length > 0;
    const recursive = this.isRecursive(target.pointer, located, scope);

    if (forceInline && recursive)
      throw invalidSchema(refPointer, 'the root only refers to itself, so it describes no value');
    if (this.options.refPolicy === 'keep-defs' && !forceInline) {
      if (!hasSiblings) return this.refNode(target.pointer, located.pointer);
      if (recursive) return this.recursiveRefWithSiblings(located, siblings, target.pointer);
    } else if (recursive) {
      try {
        this.unrollOrCut(ref, refPointer, target.pointer, located, scope);
      } catch (error) {
        const asNull =
          error instanceof RecursionCut && !hasSiblings
            ? this.nullInsteadOfCut(error, target.value, located.pointer)
            : undefined;
        if (asNull) return asNull;
        throw error;
      }
    }
    this.inlinedTargets.add(target.pointer);
    if (!recursive) {
      this.changes.add(
        refPointer,
        '$ref',
        'ref-inlined',
        hasSiblings && this.options.refPolicy === 'keep-defs'
          ? `Replaced by the schema at ${ref}, merged with the keywords next to "$ref".`
          : `Replaced by the schema at ${ref}.`,
      );
    }
    const targetLocated = new Located(
      target.value,
      target.pointer,
      undefined,
      undefined,
      scopeAfterInlining(target.pointer, located.pointer, scope),
    );
    if (!hasSiblings) return this.normalize(targetLocated, scope);
    // The keywords beside `$ref` come first so their annotations (description, title) win.
    const siblingsLocated = new Located(
      siblings,
      located.pointer,
      located.keywordPointers,
      located.leftovers,
      scope,
    );
    return this.mergeAndNormalize([siblingsLocated, targetLocated], located.pointer, scope);
  }

  /** OpenAI: a recursive reference cannot be inlined; its siblings move onto a one-branch union. */
  private recursiveRefWithSiblings(
    located: Located,
    siblings: Record<string, unknown>,
    targetPointer: string,
  ): UnionNode {
    const entries = Object.entries(siblings).map(([keyword, value]): KeywordEntry => ({
      keyword,
      value,
      pointer: located.keywordPointer(keyword),
    }));
    return {
      kind: 'union',
      pointer: located.pointer,
      branches: [this.refNode(targetPointer, located.pointer)],
      annotations: entries.filter((entry) => isAnnotationKeyword(entry.keyword)),
      constraints: [...entries.filter((entry) => !isAnnotationKeyword(entry.keyword)), ...located.leftovers],
    };
  }

  /**
   * Intersects schemas into one node: flattens nested `allOf`, inlines top-level `$ref`s (a
   * recursive one under `keep-defs` stays a reference), merges, then normalizes the result.
   */
  private mergeAndNormalize(entries: readonly Located[], pointer: string, scope: Scope): SchemaNode {
    const flat: Located[] = [];
    const recursiveRefs: Array<{ ref: string; targetPointer: string; at: string }> = [];
    const expand = (entry: Located, parentScope: Scope): void => {
      this.nodeCount += 1;
      const entryScope = entry.scope ?? parentScope;
      const schema = this.schemaObject(entry);
      const ref = toPlainJson(schema.$ref);
      if (ref !== undefined) {
        const at = entry.keywordPointer('$ref');
        if (typeof ref !== 'string') throw invalidSchema(at, '"$ref" must be a string');
        const target = resolveLocalRef(this.root, ref, at);
        const rest = new Located(
          withoutKeywords(schema, ['$ref', '$defs', 'definitions']),
          entry.pointer,
          entry.keywordPointers,
          entry.leftovers,
        );
        const recursive = this.isRecursive(target.pointer, entry, entryScope);
        if (recursive && this.options.refPolicy === 'keep-defs') {
          recursiveRefs.push({ ref, targetPointer: target.pointer, at });
          expand(rest, entryScope);
          return;
        }
        // Inline policy: a recursive reference in an intersection is unrolled, or cuts the whole node.
        if (recursive) this.unrollOrCut(ref, at, target.pointer, entry, entryScope);
        else this.changes.add(at, '$ref', 'ref-inlined', `Replaced by the schema at ${ref}.`);
        this.inlinedTargets.add(target.pointer);
        expand(rest, entryScope);
        expand(
          new Located(target.value, target.pointer),
          scopeAfterInlining(target.pointer, entry.pointer, entryScope),
        );
        return;
      }
      const allOf = schema.allOf instanceof Located ? schema.allOf.value : schema.allOf;
      if (allOf !== undefined) {
        const at = entry.keywordPointer('allOf');
        if (!Array.isArray(allOf) || allOf.length === 0)
          throw invalidSchema(at, '"allOf" must be a non-empty array of schemas');
        expand(
          new Located(
            withoutKeywords(schema, ['allOf']),
            entry.pointer,
            entry.keywordPointers,
            entry.leftovers,
          ),
          entryScope,
        );
        allOf.forEach((child, index) => expand(locate(child, appendPointer(at, 'allOf', index)), entryScope));
        return;
      }
      flat.push(new Located(schema, entry.pointer, entry.keywordPointers, entry.leftovers, entryScope));
    };
    for (const entry of entries) expand(entry, scope);
    const merged = mergeSchemas(flat, pointer, scope);
    if (recursiveRefs.length === 0) return this.normalize(merged, scope);

    const mergedSchema = merged.value as Record<string, unknown>;
    const onlyAnnotations =
      Object.keys(mergedSchema).every(isAnnotationKeyword) && merged.leftovers.length === 0;
    const [single] = recursiveRefs;
    if (single && recursiveRefs.length === 1 && onlyAnnotations) {
      return this.recursiveRefWithSiblings(merged, mergedSchema, single.targetPointer);
    }
    const leftovers = recursiveRefs.map(({ ref, at }): KeywordEntry => ({
      keyword: '$ref',
      value: ref,
      pointer: at,
    }));
    return this.normalize(
      new Located(
        mergedSchema,
        merged.pointer,
        merged.keywordPointers,
        [...merged.leftovers, ...leftovers],
        scope,
      ),
      scope,
    );
  }

  private normalizeUnion(
    located: Located,
    schema: Record<string, unknown>,
    scope: Scope,
    reportDistribution: boolean,
  ): SchemaNode {
    const leftovers: KeywordEntry[] = [...located.leftovers];
    let keyword: 'anyOf' | 'oneOf' = 'anyOf';
    if (schema.anyOf === undefined) {
      keyword = 'oneOf';
      this.changes.add(
        located.keywordPointer('oneOf'),
        'oneOf',
        'union-rewritten',
        '"oneOf" became "anyOf"; that exactly one branch matches is only checked afterwards.',
      );
    } else if (schema.oneOf !== undefined) {
      leftovers.push({ keyword: 'oneOf', value: schema.oneOf, pointer: located.keywordPointer('oneOf') });
    }
    const at = located.keywordPointer(keyword);
    const rawBranches =
      schema[keyword] instanceof Located ? (schema[keyword] as Located).value : schema[keyword];
    if (!Array.isArray(rawBranches) || rawBranches.length === 0)
      throw invalidSchema(at, `"${keyword}" must be a non-empty array of schemas`);
    const branchLocations = rawBranches.map((branch, index) =>
      locate(branch, appendPointer(at, keyword, index)),
    );

    const rest = withoutKeywords(schema, ['anyOf', 'oneOf']);
    const distributed = Object.keys(rest).filter(
      (name) => !isAnnotationKeyword(name) && !UNIVERSAL_CONSTRAINTS.has(name),
    );
    let branches: SchemaNode[];
    if (distributed.length > 0) {
      // {P, anyOf:[A, B]} ≡ {anyOf:[P∧A, P∧B]}: targets want typed branches, not keywords beside the union.
      if (reportDistribution) {
        this.changes.add(
          at,
          keyword,
          'union-rewritten',
          `The keywords next to it (${distributed.join(', ')}) were merged into every branch.`,
        );
      }
      const restLocated = new Located(
        Object.fromEntries(distributed.map((name) => [name, rest[name]])),
        located.pointer,
        new Map(distributed.map((name) => [name, located.keywordPointer(name)])),
      );
      branches = this.normalizeBranches(keyword, branchLocations, (branch) =>
        this.mergeAndNormalize([restLocated, branch], branch.pointer, scope),
      );
    } else {
      branches = this.normalizeBranches(keyword, branchLocations, (branch) => this.normalize(branch, scope));
    }
    // A branch that is itself a bare union adds nothing but nesting.
    branches = branches.flatMap((branch) =>
      branch.kind === 'union' && branch.annotations.length === 0 && branch.constraints.length === 0
        ? branch.branches
        : [branch],
    );

    const entries = Object.entries(rest).map(([name, value]): KeywordEntry => ({
      keyword: name,
      value,
      pointer: located.keywordPointer(name),
    }));
    const annotations = entries.filter((entry) => isAnnotationKeyword(entry.keyword));
    const constraints = [
      ...entries.filter((entry) => UNIVERSAL_CONSTRAINTS.has(entry.keyword)),
      ...leftovers,
    ];
    const [only] = branches;
    if (only && branches.length === 1 && annotations.length === 0 && constraints.length === 0) return only;
    return { kind: 'union', pointer: located.pointer, branches, annotations, constraints };
  }

  /**
   * Normalizes each branch of a union; a branch where unrolled recursion is cut is left out (the
   * other branches remain). Only when every branch is cut does the cut move further up.
   */
  private normalizeBranches(
    keyword: string,
    branches: readonly Located[],
    normalizeBranch: (branch: Located) => SchemaNode,
  ): SchemaNode[] {
    const kept: SchemaNode[] = [];
    const cuts: Array<{ cut: RecursionCut; pointer: string }> = [];
    for (const branch of branches) {
      try {
        kept.push(normalizeBranch(branch));
      } catch (error) {
        if (!(error instanceof RecursionCut)) throw error;
        cuts.push({ cut: error, pointer: branch.pointer });
      }
    }
    const [firstCut] = cuts;
    if (firstCut && kept.length === 0) throw firstCut.cut;
    for (const { cut, pointer } of cuts) {
      this.changes.add(
        pointer,
        keyword,
        'recursion-unrolled',
        describeCut(cut, `this "${keyword}" branch is left out`),
      );
    }
    return kept;
  }

  /** `enum`/`const` with object or array values: each such value becomes a branch that matches exactly it. */
  private rewriteComplexLiterals(
    located: Located,
    schema: Record<string, unknown>,
    scope: Scope,
  ): SchemaNode | undefined {
    const constValue = toPlainJson(schema.const);
    if (Object.hasOwn(schema, 'const') && !isPrimitive(constValue)) {
      const at = located.keywordPointer('const');
      this.changes.add(
        at,
        'const',
        'union-rewritten',
        'The object/array "const" became a schema that matches exactly that value.',
      );
      const rest = new Located(
        withoutKeywords(schema, ['const']),
        located.pointer,
        located.keywordPointers,
        located.leftovers,
      );
      const exact = schemaForValue(constValue, appendPointer(at, 'const'));
      return this.mergeAndNormalize(
        [rest, new Located(exact, appendPointer(at, 'const'))],
        located.pointer,
        scope,
      );
    }
    const enumValues = toPlainJson(schema.enum);
    if (!Array.isArray(enumValues) || enumValues.every(isPrimitive)) return undefined;
    const at = appendPointer(located.keywordPointer('enum'), 'enum');
    this.changes.add(
      located.keywordPointer('enum'),
      'enum',
      'union-rewritten',
      'Object/array values in "enum" became "anyOf" branches that each match exactly one value.',
    );
    const primitives = enumValues.filter(isPrimitive);
    const branches: Located[] = [];
    if (primitives.length > 0) branches.push(new Located({ enum: primitives }, at));
    enumValues.forEach((value, index) => {
      if (!isPrimitive(value))
        branches.push(new Located(schemaForValue(value, appendPointer(at, index)), appendPointer(at, index)));
    });
    const rewritten = { ...withoutKeywords(schema, ['enum']), anyOf: branches };
    return this.normalizeUnion(
      new Located(rewritten, located.pointer, located.keywordPointers, located.leftovers),
      rewritten,
      scope,
      false,
    );
  }
}

/**
 * Phase one of lowering, shared by every target: turns the caller's schema into `SchemaNode`s,
 * recording target-independent changes (inlined refs, merged `allOf`, `oneOf` → `anyOf`, inferred
 * types) in `changes`. Never mutates `schema`.
 */
export function normalizeSchema(
  schema: JsonSchema,
  options: NormalizeOptions,
  changes: ChangeLog,
): NormalizedSchema {
  if (!isPlainObject(schema))
    throw invalidSchema('', `expected a JSON Schema object, got ${compactJson(schema)}`);
  return new Normalizer(schema, options, changes).run();
}
