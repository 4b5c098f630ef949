import type { z } from 'zod';

const outsidePrintableAscii = /[^\x20-\x7e]/;

/**
 * Why a header value that is stored (an end-user id, an audit reason) cannot be kept as the client
 * meant it, or undefined. Node reads each header byte as one Latin-1 character, so UTF-8 text
 * arrives altered ("é" as "Ã©") and would be stored that way: only printable ASCII is accepted.
 */
export function storedHeaderProblem(value: string): string | undefined {
  const index = value.search(outsidePrintableAscii);
  if (index === -1) return undefined;
  const code = value.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
  return `must be printable ASCII: the character at index ${index} (U+${code}) is not (header bytes are read as Latin-1, so other text would be stored altered)`;
}

/** The same rule as a zod refinement. */
export function refineStoredHeader(value: string, context: z.core.$RefinementCtx<string>): void {
  const problem = storedHeaderProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
}
