import type { FinishReason } from '../types/result';

export function mapOpenAIFinishReason(reason: string | null | undefined, refused: boolean): FinishReason {
  if (refused) return 'refusal';
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
