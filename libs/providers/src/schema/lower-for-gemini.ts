import type { JsonSchema } from '../types/json-schema';
import { ChangeLog } from './change-log';
import { composeDescription, describeConstraint } from './describe-constraints';
import { isPlainObject } from './json-value';
import { toPlainJson } from './located';
import { assembleSchema, lowerKeywords } from './lower-keywords';
import { normalizeSchema } from './normalize-schema';
import { recursionDepthOf } from './recursion-unroll';
import type { LoweredSchema, LoweringOptions } from './schema-change';
import type { SchemaNode, TypedNode, UnionNode } from './schema-node';

/** Gemini has no null type: nullability is a flag on the other type. */
function makeNullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf))
    return {
      ...schema,
      anyOf: schema.anyOf.map((branch) => (isPlainObject(branch) ? makeNullable(branch) : branch)),
    };
  const { type, ...rest } = schema;
  return type === undefined ? { ...schema, nullable: true } : { type, nullable: true, ...rest };
}

/**
 * OpenAPI 3.0.3 wants a nullable enum to list null, but Gemini's `enum` is a list of strings: a
 * null entry is refused with a 400 (`enum[n]: cannot be empty`). `nullable: true` is the only way
 * Gemini takes null there, so the enum stays strings-only and the report says so.
 */
const NULLABLE_ENUM_DETAIL =
  'Gemini enums hold strings only (a null entry is refused), so null is not listed in "enum"; "nullable": true is what allows null here.';

function isNullOnly(node: SchemaNode): node is TypedNode {
  return node.kind === 'typed' && node.type === 'null' && node.constraints.length === 0;
}

/** Phase two for Gemini's `responseSchema` (an OpenAPI 3.0 subset). */
class GeminiLowering {
  constructor(private readonly changes: ChangeLog) {}

  lower(node: SchemaNode): JsonSchema {
    switch (node.kind) {
      case 'union':
        return this.lowerUnion(node);
      case 'typed':
        return this.lowerTyped(node);
      case 'ref':
        // Normalization inlines every reference for Gemini; reaching this is a bug, not bad input.
        throw new Error(`internal: unexpected reference at ${node.pointer || '/'} in a Gemini lowering`);
    }
  }

  private lowerUnion(node: UnionNode): JsonSchema {
    const keywords = lowerKeywords('gemini', node, undefined, this.changes);
    const nullBranches = node.branches.filter(isNullOnly);
    const others = node.branches.filter((branch) => !isNullOnly(branch));
    if (others.length === 0) return this.lowerNullOnly(node.pointer, keywords.description);
    let branches = others.map((branch) => this.lower(branch));
    if (nullBranches.length > 0) {
      branches = branches.map(makeNullable);
      others.forEach((branch, index) => {
        if (Array.isArray(branches[index]?.enum))
          this.changes.add(branch.pointer, 'enum', 'union-rewritten', NULLABLE_ENUM_DETAIL);
      });
      for (const branch of nullBranches) {
        this.changes.add(
          branch.pointer,
          'type',
          'union-rewritten',
          'Gemini has no null type: null became "nullable": true on the other branches.',
        );
        // The branch itself disappears; what it carried is reported like anywhere else.
        lowerKeywords('gemini', branch, undefined, this.changes);
      }
    }
    const [single] = branches;
    if (single && branches.length === 1) {
      // anyOf:[X, null] is just a nullable X; the union's own title/description go onto it.
      const description = composeDescription(
        keywords.description,
        typeof single.description === 'string' ? [single.description] : [],
      );
      return { ...single, ...keywords.annotations, ...(description !== undefined && { description }) };
    }
    return assembleSchema({}, keywords, { anyOf: branches });
  }

  private lowerNullOnly(pointer: string, description: string | undefined): JsonSchema {
    this.changes.add(
      pointer,
      'type',
      'moved-to-description',
      'Gemini has no null type: this became a nullable string whose description says it must be null; checked afterwards.',
    );
    return {
      type: 'string',
      nullable: true,
      description: composeDescription(description, ['Must be null.']),
    };
  }

  private lowerTyped(node: TypedNode): JsonSchema {
    if (node.type === 'null') {
      return this.lowerNullOnly(
        node.pointer,
        lowerKeywords('gemini', node, undefined, this.changes).description,
      );
    }
    const sentences: string[] = [];
    const structural: Record<string, unknown> = {};
    const head: JsonSchema = { type: node.type };
    if (node.nullable) {
      head.nullable = true;
      this.changes.add(
        node.pointer,
        'type',
        'union-rewritten',
        `[${JSON.stringify(node.type)}, "null"] became "nullable": true.`,
      );
    }
    this.lowerLiterals(node, structural, sentences);
    if (node.type === 'object') this.lowerObject(node, structural, sentences);
    if (node.type === 'array' && node.items) structural.items = this.lower(node.items);
    return assembleSchema(
      head,
      lowerKeywords('gemini', node, node.type, this.changes, sentences),
      structural,
    );
  }

  /** Gemini enums are strings only; other literals are described. */
  private lowerLiterals(node: TypedNode, structural: Record<string, unknown>, sentences: string[]): void {
    if (node.constValue) {
      const { value } = node.constValue;
      if (typeof value === 'string') {
        structural.enum = [value];
        this.changes.add(node.pointer, 'const', 'union-rewritten', '"const" became a one-value "enum".');
      } else {
        const text = describeConstraint('const', value);
        sentences.push(...text);
        this.changes.add(
          node.pointer,
          'const',
          'moved-to-description',
          `Gemini has no "const" and only string enums; the description now says: "${text.join(' ')}" It is checked afterwards.`,
        );
      }
    } else if (node.enumValues) {
      const values = node.enumValues.filter((value) => value !== null);
      if (node.type === 'string') {
        structural.enum = values;
        if (node.nullable) this.changes.add(node.pointer, 'enum', 'union-rewritten', NULLABLE_ENUM_DETAIL);
      } else {
        const text = describeConstraint('enum', values);
        sentences.push(...text);
        this.changes.add(
          node.pointer,
          'enum',
          'moved-to-description',
          `Gemini enums hold strings only; the description now says: "${text.join(' ')}" It is checked afterwards.`,
        );
      }
    }
  }

  private lowerObject(node: TypedNode, structural: Record<string, unknown>, sentences: string[]): void {
    const properties = node.properties ?? [];
    if (properties.length > 0) {
      structural.properties = Object.fromEntries(
        properties.map((property) => [property.name, this.lower(property.node)]),
      );
      const required = properties.filter((property) => property.required).map((property) => property.name);
      if (required.length > 0) structural.required = required;
      // Gemini otherwise orders keys alphabetically, which can change what the model writes first.
      structural.propertyOrdering = properties.map((property) => property.name);
      this.changes.add(
        node.pointer,
        'propertyOrdering',
        'added',
        'Keeps the properties in the order the schema declares them.',
      );
    }
    const entry = node.additionalProperties;
    if (!entry) return;
    const value = toPlainJson(entry.value);
    if (isPlainObject(value)) {
      const text = describeConstraint('additionalProperties', value);
      sentences.push(...text);
      this.changes.add(
        entry.pointer,
        'additionalProperties',
        'moved-to-description',
        `Gemini has no additionalProperties, so extra keys (a map) cannot be generated; the description now says: "${text.join(' ')}" It is checked afterwards.`,
      );
    } else {
      this.changes.add(
        entry.pointer,
        'additionalProperties',
        'dropped',
        value === false
          ? 'Gemini has no additionalProperties; it only generates the declared properties, and extra keys are still rejected afterwards.'
          : 'Gemini has no additionalProperties; it only generates the declared properties.',
      );
    }
  }
}

/**
 * Lowers a schema to Gemini's `generationConfig.responseSchema` subset: every `$ref` inlined
 * (recursion unrolled `options.recursionDepth` levels deep, see `lowerJsonSchema`), `[T, "null"]` → `nullable`, multi-type →
 * `anyOf`, `const` → one-value string enum, non-string enums and unsupported keywords described,
 * `propertyOrdering` added. The answer needs no restoring.
 */
export function lowerForGemini(schema: JsonSchema, options: LoweringOptions = {}): LoweredSchema {
  const changes = new ChangeLog();
  const normalized = normalizeSchema(
    schema,
    {
      refPolicy: 'inline',
      arrayItemsRequired: true,
      targetName: "Gemini's responseSchema",
      recursionDepth: recursionDepthOf(options),
    },
    changes,
  );
  const lowered = new GeminiLowering(changes).lower(normalized.root);
  return { target: 'gemini', schema: lowered, changes: changes.list(schema), restore: (value) => value };
}
