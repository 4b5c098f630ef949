const PREVIEW_CHARACTERS = 80;

/** A value as a short JSON preview for labels and messages ("got {"total":12,…}"). */
export function previewJson(value: unknown): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS - 1)}…` : text;
}

/** What a JSON value is, in words ("an array", "a string", "null"). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** A pointer as a label's subject: "" reads "the output". */
export function pointerSubject(pointer: string): string {
  return pointer === '' ? 'the output' : pointer;
}
