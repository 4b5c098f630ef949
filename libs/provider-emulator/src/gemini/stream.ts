/**
 * One SSE event in the only form the legacy SDK's parser accepts: `data: <single-line JSON>`
 * and a blank line; no `event:` lines, comments or `[DONE]`. JSON.stringify never emits raw
 * newlines, so the single-line rule holds.
 */
export function geminiFrame(data: string): string {
  return `data: ${data}\n\n`;
}
