import type { JsonSchema } from '../types/json-schema';
import type { ChangeLog } from './change-log';
import { describeConstraint } from './describe-constraints';
import { escapePointerToken } from './json-pointer';
import { isPlainObject } from './json-value';
import { toPlainJson } from './located';
import { assembleSchema, lowerKeywords } from './lower-keywords';
import type { NormalizedSchema } from './normalize-schema';
import {
  nodeAcceptsNull,
  type RefNode,
  type SchemaNode,
  type TypedNode,
  type UnionNode,
} from './schema-node';

export interface StrictDialectOptions {
  target: 'openai-strict' | 'anthropic';
  /** OpenAI strict: every property is listed in `required`; optional ones become nullable. */
  allPropertiesRequired: boolean;
  /** What `$ref: "#"` becomes (the root may have been wrapped). */
  rootReference: string;
}

/** Adds null to what a lowered schema accepts, in the form strict mode documents. */
export function makeNullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (typeof type === 'string' && schema.const === undefined && schema.$ref === undefined) {
    return {
      ...schema,
      type: [type, 'null'],
      ...(Array.isArray(schema.enum) && { enum: [...schema.enum, null] }),
    };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * Phase two for the two "strict JSON Schema subset" targets, OpenAI strict mode and Anthropic:
 * every object is closed with `additionalProperties: false`, unions stay `anyOf`, and whatever the
 * target does not enforce goes into descriptions.
 */
export class StrictDialectLowering {
  /** Per lowered object: the optional properties made nullable, whose `null` means "absent". */
  readonly nullMeansAbsent = new WeakMap<JsonSchema, ReadonlySet<string>>();

  private readonly definitionNodes: ReadonlyMap<string, SchemaNode>;

  constructor(
    private readonly options: StrictDialectOptions,
    private readonly normalized: NormalizedSchema,
    private readonly changes: ChangeLog,
  ) {
    this.definitionNodes = new Map(
      normalized.definitions.map((definition) => [definition.name, definition.node]),
    );
  }

  lower(node: SchemaNode): JsonSchema {
    switch (node.kind) {
      case 'ref':
        return {
          $ref:
            node.definition === undefined
              ? this.options.rootReference
              : `#/$defs/${escapePointerToken(node.definition)}`,
        };
      case 'union':
        return this.lowerUnion(node);
      case 'typed':
        return this.lowerTyped(node);
    }
  }

  /** The lowered `$defs`, or undefined when nothing is referenced. */
  lowerDefinitions(): Record<string, JsonSchema> | undefined {
    if (this.normalized.definitions.length === 0) return undefined;
    return Object.fromEntries(
      this.normalized.definitions.map((definition) => [definition.name, this.lower(definition.node)]),
    );
  }

  private resolve = (ref: RefNode): SchemaNode | undefined =>
    ref.definition === undefined ? this.normalized.root : this.definitionNodes.get(ref.definition);

  private lowerUnion(node: UnionNode): JsonSchema {
    const keywords = lowerKeywords(this.options.target, node, undefined, this.changes);
    return assembleSchema({}, keywords, { anyOf: node.branches.map((branch) => this.lower(branch)) });
  }

  private lowerTyped(node: TypedNode): JsonSchema {
    const sentences: string[] = [];
    const structural: Record<string, unknown> = {};
    if (node.constValue) structural.const = node.constValue.value;
    else if (node.enumValues) structural.enum = [...node.enumValues];
    let nullMeansAbsent: ReadonlySet<string> | undefined;
    if (node.type === 'object') nullMeansAbsent = this.lowerObject(node, structural, sentences);
    if (node.type === 'array' && node.items) structural.items = this.lower(node.items);

    const keywords = lowerKeywords(this.options.target, node, node.type, this.changes, sentences);
    const lowered = assembleSchema(
      { type: node.nullable ? [node.type, 'null'] : node.type },
      keywords,
      structural,
    );
    if (nullMeansAbsent && nullMeansAbsent.size > 0) this.nullMeansAbsent.set(lowered, nullMeansAbsent);
    return lowered;
  }

  private lowerObject(
    node: TypedNode,
    structural: Record<string, unknown>,
    sentences: string[],
  ): ReadonlySet<string> {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const nullMeansAbsent = new Set<string>();
    for (const property of node.properties ?? []) {
      let lowered = this.lower(property.node);
      if (property.required) {
        required.push(property.name);
      } else if (this.options.allPropertiesRequired) {
        required.push(property.name);
        if (nodeAcceptsNull(property.node, this.resolve)) {
          this.changes.add(
            property.pointer,
            'required',
            'made-required-nullable',
            `"${property.name}" was optional and already accepts null: it is now required, and a null answer is kept as null.`,
          );
        } else {
          const nullable = makeNullable(lowered);
          // `makeNullable` may copy the object; what restore knows about it must follow.
          const inner = this.nullMeansAbsent.get(lowered);
          if (inner) this.nullMeansAbsent.set(nullable, inner);
          lowered = nullable;
          nullMeansAbsent.add(property.name);
          this.changes.add(
            property.pointer,
            'required',
            'made-required-nullable',
            `"${property.name}" was optional: it is now required and may be null; restore() removes it when the model answers null.`,
          );
        }
      }
      properties[property.name] = lowered;
    }
    structural.properties = properties;
    if (required.length > 0 || this.options.allPropertiesRequired) structural.required = required;

    const entry = node.additionalProperties;
    const additional = entry === undefined ? undefined : toPlainJson(entry.value);
    const pointer = entry?.pointer ?? node.pointer;
    if (isPlainObject(additional)) {
      const text = describeConstraint('additionalProperties', additional);
      sentences.push(...text);
      this.changes.add(
        pointer,
        'additionalProperties',
        'moved-to-description',
        `The target only produces declared properties, so extra keys (a map) cannot be generated; the description now says: "${text.join(' ')}" It is checked afterwards.`,
      );
    } else if (additional !== false) {
      this.changes.add(
        pointer,
        'additionalProperties',
        'added',
        (node.properties ?? []).length === 0
          ? 'additionalProperties: false is required; no properties are declared, so only an empty object can be produced.'
          : 'additionalProperties: false is required; extra keys can no longer be produced.',
      );
    }
    structural.additionalProperties = false;
    return nullMeansAbsent;
  }
}
