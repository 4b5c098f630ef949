/**
 * Splits text into pieces of at most {@link CHUNK_MAX_CHARS} for the tokenizer.
 *
 * Why: BPE cost grows faster than linearly with the length of a run without whitespace
 * (64k × "x" takes seconds in gpt-tokenizer; random CJK is worse), and counting chunk by chunk lets
 * a count stop as soon as a limit is passed. Chunks end just before a whitespace character where
 * possible, which is where the tokenizer's own pre-split puts a boundary, so the sum of chunk
 * counts is the count of the whole text in almost every case. The sum *is* the count by this
 * library's definition: every budget check uses the same function.
 */

/** Texts up to this length are one chunk. */
export const CHUNK_MIN_CHARS = 512;
/** No chunk is longer than this. */
export const CHUNK_MAX_CHARS = 1024;

/** True for space, tab, line feed and carriage return. */
export function isChunkBreak(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** True when `index` falls between the two halves of a surrogate pair. */
export function splitsSurrogatePair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * End (exclusive) of the chunk starting at `start`.
 *
 * The decision looks only at text inside the chunk it returns, so a prefix of a text is chunked
 * exactly like the text up to the prefix's last chunk; this makes prefix counts from a chunk scan
 * equal to counting the prefix itself.
 */
export function nextChunkEnd(text: string, start: number): number {
  const length = text.length;
  if (length - start <= CHUNK_MIN_CHARS) return length;
  const limit = Math.min(length, start + CHUNK_MAX_CHARS);
  for (let index = start + CHUNK_MIN_CHARS; index < limit; index++) {
    if (isChunkBreak(text.charCodeAt(index))) return index;
  }
  return splitsSurrogatePair(text, limit) ? limit - 1 : limit;
}

/** Start of the chunk that ends (exclusive) at `end`, for scans that walk backwards from the end. */
export function previousChunkStart(text: string, end: number): number {
  if (end <= CHUNK_MIN_CHARS) return 0;
  const limit = Math.max(0, end - CHUNK_MAX_CHARS);
  for (let index = end - CHUNK_MIN_CHARS; index > limit; index--) {
    if (isChunkBreak(text.charCodeAt(index))) return index;
  }
  return splitsSurrogatePair(text, limit) ? limit + 1 : limit;
}
