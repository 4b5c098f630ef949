import { isCalendarDay } from './search-params';

/** What one URL parameter said, once read by its field. */
export type FieldReading<Value> =
  | { readonly kind: 'value'; readonly value: Value }
  /** Malformed in a way not worth a message (a stale or hand-edited link): as if it were absent. */
  | { readonly kind: 'ignored' }
  /** Unusable, and the page says so. The words are the page's own, never the URL's. */
  | { readonly kind: 'problem'; readonly problem: string };

/**
 * How one filter of a page lives in its URL. `read` gets the parameter's trimmed, non-blank text
 * (an empty form field means "no filter" and never reaches it); `write` gives the text to put in a
 * link, or undefined to leave the parameter out.
 */
export interface QueryField<Value> {
  /** The parameter's name in the URL when it is not the filter's own name. */
  readonly param?: string;
  /** The value an absent, ignored or refused parameter stands for; without one the filter is left unset. */
  readonly fallback?: Value;
  read(text: string): FieldReading<Value>;
  write(value: Value): string | undefined;
}

/** A field that always has a value (its fallback when the URL has none). */
export type DefaultedField<Value> = QueryField<Value> & { readonly fallback: Value };

const valueOf = <Value>(value: Value): FieldReading<Value> => ({ kind: 'value', value });
const ignored: FieldReading<never> = { kind: 'ignored' };

/** Free text, as typed (an id, a model name, words to search for). */
export function textField(): QueryField<string> {
  return { read: valueOf, write: (value) => value };
}

/**
 * One of a closed set of words; anything else is a problem (`problem` names the field and its
 * choices, so a link anyone can write never words the page's alert).
 */
export function choiceField<const Choice extends string>(
  choices: readonly Choice[],
  problem: string,
): QueryField<Choice> {
  const isChoice = (text: string): text is Choice => (choices as readonly string[]).includes(text);
  return {
    read: (text) => (isChoice(text) ? valueOf(text) : { kind: 'problem', problem }),
    write: (value) => value,
  };
}

/** Text of a fixed shape (an id, a cursor); anything else is dropped as if absent, without a word. */
export function patternField(pattern: RegExp): QueryField<string> {
  return { read: (text) => (pattern.test(text) ? valueOf(text) : ignored), write: (value) => value };
}

/** An on/off switch, on when the parameter is `word` (`revoked=include`); off is left out of the URL. */
export function flagField(word: string): DefaultedField<boolean> {
  return {
    fallback: false,
    read: (text) => (text === word ? valueOf(true) : ignored),
    write: (value) => (value ? word : undefined),
  };
}

/**
 * A `YYYY-MM-DD` calendar day (UTC); anything else is a problem that names the field by `title`,
 * the form's label, without quoting the value (the form field still shows it).
 */
export function dayField(title: string): QueryField<string> {
  return {
    read: (text) =>
      isCalendarDay(text)
        ? valueOf(text)
        : { kind: 'problem', problem: `${title} must be a date like 2026-01-31.` },
    write: (value) => value,
  };
}

/** `field` under another parameter name than its filter's (`userId` as `user`). */
export function inParam<Field extends QueryField<unknown>>(param: string, field: Field): Field {
  return { ...field, param };
}

/** `field` with the value it stands for when the URL has none (or one it refuses). */
export function withFallback<Value>(field: QueryField<Value>, fallback: Value): DefaultedField<Value> {
  return { ...field, fallback };
}
