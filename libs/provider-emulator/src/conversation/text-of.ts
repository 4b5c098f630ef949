import { isRecord } from '../json';

/** The text of a content value: a string, or the `text` of each part of an array, joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .flatMap((part) => (typeof part.text === 'string' ? [part.text] : []))
    .join('\n');
}

/** A tool result as text: strings as they are, anything else as JSON. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const text = textOf(value);
    if (text !== '') return text;
  }
  return JSON.stringify(value ?? null);
}
