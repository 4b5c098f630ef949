/**
 * Splits text into pieces of `size` characters, never inside a surrogate pair, so every piece
 * is valid on its own. An empty text yields no pieces.
 */
export function chunkText(text: string, size: number): string[] {
  if (text.length <= size) return text.length === 0 ? [] : [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const lastCode = text.charCodeAt(end - 1);
    if (end < text.length && lastCode >= 0xd800 && lastCode <= 0xdbff) end += 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
