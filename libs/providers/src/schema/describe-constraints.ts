import { compactJson, isPlainObject } from './json-value';
import { type KeywordEntry, toPlainJson } from './located';

/**
 * Readable sentences for constraints a target cannot enforce. They go into `description`, where the
 * model reads them; the caller's original schema still checks them afterwards.
 */

function count(value: unknown, noun: string): string {
  const plural = noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;
  return `${json(value)} ${value === 1 ? noun : plural}`;
}

function json(value: unknown): string {
  return compactJson(toPlainJson(value));
}

function list(values: readonly unknown[]): string {
  return values.map((value) => json(value)).join(', ');
}

function quoteNames(names: readonly unknown[]): string {
  return names.map((name) => JSON.stringify(String(name))).join(', ');
}

function describeTuple(value: unknown): string {
  const members = Array.isArray(value) ? value : [];
  return members.map((member, index) => `item ${index + 1} must match ${json(member)}`).join('; ');
}

function describeDependencies(value: unknown): string[] {
  if (!isPlainObject(value)) return [`Dependencies: ${json(value)}.`];
  return Object.entries(value).map(([name, dependency]) =>
    Array.isArray(dependency)
      ? `If ${JSON.stringify(name)} is present, ${quoteNames(dependency)} must be present too.`
      : `If ${JSON.stringify(name)} is present, the object must also match ${json(dependency)}.`,
  );
}

/** One sentence per constraint (several for keyword maps such as `patternProperties`). */
export function describeConstraint(
  keyword: string,
  value: unknown,
  siblings: readonly KeywordEntry[] = [],
): string[] {
  const plain = toPlainJson(value);
  switch (keyword) {
    case 'minLength':
      return [`Must be at least ${count(plain, 'character')} long.`];
    case 'maxLength':
      return [`Must be at most ${count(plain, 'character')} long.`];
    case 'pattern':
      return [`Must match the regular expression ${json(plain)}.`];
    case 'format':
      return [`Must be a valid ${String(plain)} (format ${json(plain)}).`];
    case 'minimum':
      return [`Must be >= ${json(plain)}.`];
    case 'maximum':
      return [`Must be <= ${json(plain)}.`];
    case 'exclusiveMinimum':
      return [`Must be > ${json(plain)}.`];
    case 'exclusiveMaximum':
      return [`Must be < ${json(plain)}.`];
    case 'multipleOf':
      return [`Must be a multiple of ${json(plain)}.`];
    case 'minItems':
      return [`Must have at least ${count(plain, 'item')}.`];
    case 'maxItems':
      return [`Must have at most ${count(plain, 'item')}.`];
    case 'uniqueItems':
      return plain === true ? ['Items must be unique.'] : [];
    case 'contains':
      return [`Must contain at least one item matching ${json(plain)}.`];
    case 'minContains':
      return [
        `At least ${json(plain)} items must match ${json(siblings.find((entry) => entry.keyword === 'contains')?.value ?? {})}.`,
      ];
    case 'maxContains':
      return [
        `At most ${json(plain)} items may match ${json(siblings.find((entry) => entry.keyword === 'contains')?.value ?? {})}.`,
      ];
    case 'prefixItems':
      return [`In order: ${describeTuple(plain)}.`];
    case 'items':
      return Array.isArray(plain)
        ? [`In order: ${describeTuple(plain)}.`]
        : plain === false
          ? ['No items beyond the listed ones.']
          : [`Every item must match ${json(plain)}.`];
    case 'additionalItems':
    case 'unevaluatedItems':
      return plain === false
        ? ['No items beyond the listed ones.']
        : [`Items beyond the listed ones must match ${json(plain)}.`];
    case 'minProperties':
      return [`Must have at least ${count(plain, 'property')}.`];
    case 'maxProperties':
      return [`Must have at most ${count(plain, 'property')}.`];
    case 'additionalProperties':
      return [`May have other keys; the value of each must match ${json(plain)}.`];
    case 'unevaluatedProperties':
      return plain === false
        ? ['No other keys are allowed.']
        : [`Other keys must have values matching ${json(plain)}.`];
    case 'patternProperties':
      return isPlainObject(plain)
        ? Object.entries(plain).map(
            ([pattern, schema]) =>
              `Keys matching ${JSON.stringify(pattern)} must have values matching ${json(schema)}.`,
          )
        : [`Pattern properties: ${json(plain)}.`];
    case 'propertyNames':
      return [`Every key must match ${json(plain)}.`];
    case 'dependentRequired':
    case 'dependentSchemas':
    case 'dependencies':
      return describeDependencies(plain);
    case 'not':
      // `false` as a schema is normalized to `not: {}`.
      return isPlainObject(plain) && Object.keys(plain).length === 0
        ? ['No value is allowed here.']
        : [`Must not match ${json(plain)}.`];
    case 'if': {
      const then = siblings.find((entry) => entry.keyword === 'then');
      const otherwise = siblings.find((entry) => entry.keyword === 'else');
      const parts = [`If the value matches ${json(plain)}`];
      if (then) parts.push(`it must match ${json(then.value)}`);
      if (otherwise) parts.push(`otherwise it must match ${json(otherwise.value)}`);
      return [`${parts.join(', ')}.`];
    }
    case 'then':
    case 'else':
      // Described together with `if`; without `if` they have no effect.
      return [];
    case 'enum':
      return Array.isArray(plain) && plain.length === 1
        ? [`Must be exactly ${json(plain[0])}.`]
        : [`Must be one of: ${list(Array.isArray(plain) ? plain : [plain])}.`];
    case 'const':
      return [`Must be exactly ${json(plain)}.`];
    case 'oneOf':
      return [`Must match exactly one of: ${list(Array.isArray(plain) ? plain : [plain])}.`];
    case 'anyOf':
      return [`Must match at least one of: ${list(Array.isArray(plain) ? plain : [plain])}.`];
    case '$ref':
      return [`Must also match the schema at ${String(plain)}.`];
    case 'contentEncoding':
      return [`Must be ${String(plain)}-encoded.`];
    case 'contentMediaType':
      return [`Must contain ${String(plain)} content.`];
    case 'type':
      return [`Must be of type ${json(plain)}.`];
    default:
      return [`Must satisfy ${JSON.stringify(keyword)}: ${json(plain)}.`];
  }
}

/** Joins the caller's description and the constraint sentences into one description. */
export function composeDescription(
  base: string | undefined,
  sentences: readonly string[],
): string | undefined {
  const constraintText = sentences.join(' ');
  if (base && constraintText) return `${base}\n\n${constraintText}`;
  return base || constraintText || undefined;
}
