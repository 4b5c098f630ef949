import type { ChangeLog } from './change-log';
import { composeDescription, describeConstraint } from './describe-constraints';
import type { JsonType } from './json-value';
import { LOWERING_OWNED_KEYWORDS, STRUCTURAL_KEYWORDS } from './keyword-kinds';
import { isKeywordValueSupported } from './keyword-support';
import { type KeywordEntry, toPlainJson } from './located';
import type { SchemaTarget } from './schema-change';

/** What a node's annotations and plain constraints become for a target. */
export interface LoweredKeywords {
  /** Accepted annotations (e.g. `title`), to be placed before the structural keywords. */
  annotations: Record<string, unknown>;
  description: string | undefined;
  /** Accepted constraints (e.g. `pattern`), to be placed after the structural keywords. */
  constraints: Record<string, unknown>;
}

const DROP_REASONS: Readonly<Record<string, string>> = {
  $schema: 'Names the JSON Schema dialect; the target does not accept it.',
  $id: 'Identifies the schema document; references were resolved without it.',
  $anchor: 'Names a location for references; references were resolved without it.',
  $comment: 'A comment for schema authors; it does not change which values are valid.',
};

function dropReason(keyword: string): string {
  if (LOWERING_OWNED_KEYWORDS.has(keyword)) {
    return `Not a JSON Schema keyword (validation ignores it); the lowering sets ${keyword} itself where the target needs it.`;
  }
  return (
    DROP_REASONS[keyword] ??
    'An annotation the target does not accept; it does not change which values are valid.'
  );
}

/**
 * Shared by every target: keeps the annotations and constraints the target accepts, drops the
 * annotations it does not, and writes every other constraint into the description (reported as
 * `moved-to-description`). `type` is undefined for unions, which keep annotations only.
 * `sentences` holds constraint text the caller already produced for structural keywords.
 */
export function lowerKeywords(
  target: SchemaTarget,
  node: { annotations: readonly KeywordEntry[]; constraints: readonly KeywordEntry[] },
  type: JsonType | undefined,
  changes: ChangeLog,
  sentences: readonly string[] = [],
): LoweredKeywords {
  const annotations: Record<string, unknown> = {};
  const constraints: Record<string, unknown> = {};
  const described = [...sentences];
  let baseDescription: string | undefined;

  for (const { keyword, value, pointer } of node.annotations) {
    const plain = toPlainJson(value);
    if (keyword === 'description') {
      if (typeof plain === 'string' && baseDescription === undefined) baseDescription = plain;
      else changes.add(pointer, keyword, 'dropped', 'Only one text description is kept.');
    } else if (
      !LOWERING_OWNED_KEYWORDS.has(keyword) &&
      !(keyword in annotations) &&
      isKeywordValueSupported(target, keyword, plain, type)
    ) {
      annotations[keyword] = plain;
    } else {
      changes.add(pointer, keyword, 'dropped', dropReason(keyword));
    }
  }

  for (const { keyword, value, pointer } of node.constraints) {
    const plain = toPlainJson(value);
    const keepable = type !== undefined && !STRUCTURAL_KEYWORDS.has(keyword) && !(keyword in constraints);
    if (keepable && isKeywordValueSupported(target, keyword, plain, type)) {
      constraints[keyword] = plain;
      continue;
    }
    const siblings = node.constraints.filter((entry) => entry.pointer === pointer);
    const text = describeConstraint(keyword, value, siblings);
    if (text.length > 0) {
      described.push(...text);
      changes.add(
        pointer,
        keyword,
        'moved-to-description',
        `Not enforced by the target; the description now says: "${text.join(' ')}" It is checked afterwards.`,
      );
    } else if (
      (keyword === 'then' || keyword === 'else') &&
      siblings.some((entry) => entry.keyword === 'if')
    ) {
      changes.add(
        pointer,
        keyword,
        'moved-to-description',
        'Described together with "if"; checked afterwards.',
      );
    } else {
      changes.add(pointer, keyword, 'dropped', 'Has no effect on which values are valid.');
    }
  }

  return { annotations, description: composeDescription(baseDescription, described), constraints };
}

/** Puts a lowered node's keywords in a stable, readable order. */
export function assembleSchema(
  head: Record<string, unknown>,
  lowered: LoweredKeywords,
  structural: Record<string, unknown>,
): Record<string, unknown> {
  return {
    ...head,
    ...lowered.annotations,
    ...(lowered.description !== undefined && { description: lowered.description }),
    ...structural,
    ...lowered.constraints,
  };
}
