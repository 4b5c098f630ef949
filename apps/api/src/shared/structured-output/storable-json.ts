import type { JsonValue } from '@agentdesk/storage';

const nulCharacter = '\u0000';
const replacementCharacter = '\uFFFD';
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storableText(text: string): string {
  return text.replace(loneSurrogate, replacementCharacter).replaceAll(nulCharacter, replacementCharacter);
}

function hasUnstorableKey(value: object): boolean {
  return Object.keys(value).some((key) => key !== storableText(key));
}

/**
 * A plain JSON copy that both engines' JSON columns accept. PostgreSQL's jsonb refuses NUL and
 * unpaired surrogates, and model output, provider messages and hostile schemas may hold either:
 * they become U+FFFD (in keys too) rather than failing the run. As with `JSON.stringify`,
 * `undefined` is dropped and non-finite numbers become null.
 */
export function toStorableJson(value: unknown): JsonValue {
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') return storableText(item);
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && hasUnstorableKey(item)) {
      return Object.fromEntries(Object.entries(item).map(([key, entry]) => [storableText(key), entry]));
    }
    return item;
  });
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}
