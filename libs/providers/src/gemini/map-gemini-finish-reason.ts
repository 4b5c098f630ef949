import type { FinishReason } from '../types/result';

const contentFilterReasons = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'LANGUAGE',
]);

/** Gemini reports STOP for function calls too; a call in the answer makes it `tool-calls`. */
export function mapGeminiFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  if (hasToolCalls) return 'tool-calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason && contentFilterReasons.has(reason)) return 'content-filter';
  return 'other';
}

/**
 * The refusal text of a safety stop: Gemini sends no answer text then, only a `finishMessage`
 * saying why (when it says anything). Other stops' messages are not refusals.
 */
export function geminiRefusal(
  finishReason: FinishReason,
  finishMessage: string | undefined,
): string | undefined {
  return finishReason === 'content-filter' && finishMessage ? finishMessage : undefined;
}
