import type { JsonType, Primitive } from './json-value';
import type { KeywordEntry } from './located';

/**
 * The target-independent form of a schema that the per-target lowerings walk: references resolved
 * (or kept as named definitions), `allOf` merged, `oneOf` turned into unions, multi-type schemas
 * split into one branch per type, and every node typed. Each node remembers its original pointer.
 */
export type SchemaNode = RefNode | UnionNode | TypedNode;

interface NodeBase {
  /** Pointer of the node in the caller's original schema. */
  pointer: string;
  /** Keywords that describe but never reject (title, description, default, unknown keywords…). */
  annotations: KeywordEntry[];
  /** Constraint keywords the target may or may not enforce, with their original values. */
  constraints: KeywordEntry[];
}

/** A reference kept as a reference (only for targets that accept `$defs`). */
export interface RefNode extends NodeBase {
  kind: 'ref';
  /** Name under the lowered `$defs`, or undefined for a reference to the root (`#`). */
  definition: string | undefined;
}

export interface UnionNode extends NodeBase {
  kind: 'union';
  branches: SchemaNode[];
}

export interface PropertyNode {
  name: string;
  /** Pointer of the property's schema in the original (`…/properties/<name>`). */
  pointer: string;
  node: SchemaNode;
  required: boolean;
}

export interface TypedNode extends NodeBase {
  kind: 'typed';
  /** Never `'null'` together with `nullable`; a lone null type is `type: 'null'`. */
  type: JsonType;
  /** Null is accepted besides `type` (came from `type: [T, "null"]`). */
  nullable: boolean;
  /** Allowed values (primitives of `type`, plus null when nullable). */
  enumValues?: Primitive[];
  constValue?: { value: Primitive };
  /** Objects only, in the caller's order. */
  properties?: PropertyNode[];
  additionalProperties?: KeywordEntry;
  /** Arrays only: the schema every item must match. */
  items?: SchemaNode;
}

/** True when null is a valid value for the node (following references through `resolve`). */
export function nodeAcceptsNull(
  node: SchemaNode,
  resolve: (ref: RefNode) => SchemaNode | undefined,
  seen = new Set<SchemaNode>(),
): boolean {
  if (seen.has(node)) return false;
  seen.add(node);
  switch (node.kind) {
    case 'typed':
      return node.type === 'null' || node.nullable;
    case 'union':
      return node.branches.some((branch) => nodeAcceptsNull(branch, resolve, seen));
    case 'ref': {
      const target = resolve(node);
      return target !== undefined && nodeAcceptsNull(target, resolve, seen);
    }
  }
}
