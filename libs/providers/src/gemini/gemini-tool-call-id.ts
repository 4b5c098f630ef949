import { createHash } from 'node:crypto';

/**
 * Gemini's function calls carry no id. One is derived from the response id, the call's position,
 * name and arguments: stable for the same answer, distinct across answers and turns.
 */
export function geminiToolCallId(
  responseId: string | undefined,
  index: number,
  name: string,
  argumentsText: string,
): string {
  const digest = createHash('sha256')
    .update(`${responseId ?? ''}\u0000${index}\u0000${name}\u0000${argumentsText}`)
    .digest('hex')
    .slice(0, 16);
  return `call_${digest}`;
}
