import type { JsonType } from './json-value';
import type { SchemaTarget } from './schema-change';
import { targetFormats, targetKeywords } from './target-keywords';

/**
 * Finds a regular-expression feature Anthropic's constrained decoding does not support
 * (backreferences, lookahead/lookbehind, word boundaries), or undefined when there is none.
 */
export function findUnsupportedRegexFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      // Inside a class, `[\b]` is a backspace, not a boundary; backreferences cannot occur there.
      if (!inClass && /[1-9]/.test(next)) return `backreference \\${next}`;
      if (!inClass && next === 'k' && pattern[index + 2] === '<') return 'named backreference \\k<…>';
      if (!inClass && (next === 'b' || next === 'B')) return `word boundary \\${next}`;
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(' && pattern[index + 1] === '?') {
      const rest = pattern.slice(index + 2, index + 4);
      if (rest.startsWith('=') || rest.startsWith('!')) return 'lookahead';
      if (rest === '<=' || rest === '<!') return 'lookbehind';
    }
  }
  return undefined;
}

/**
 * Whether a target enforces `keyword: value` on a node of `type`. Structural keywords (`type`,
 * `properties`, `enum`…) are rebuilt by the lowering and never asked about here.
 */
export function isKeywordValueSupported(
  target: SchemaTarget,
  keyword: string,
  value: unknown,
  type: JsonType | undefined,
): boolean {
  if (!targetKeywords[target].has(keyword)) return false;
  switch (keyword) {
    case 'format':
      return type === 'string' && typeof value === 'string' && targetFormats[target].has(value);
    case 'pattern':
      return (
        typeof value === 'string' &&
        (target !== 'anthropic' || findUnsupportedRegexFeature(value) === undefined)
      );
    case 'minItems':
      // Anthropic supports no array constraint beyond "may be empty" / "at least one item".
      return target !== 'anthropic' || value === 0 || value === 1;
    case 'title':
      return typeof value === 'string';
    default:
      return true;
  }
}
