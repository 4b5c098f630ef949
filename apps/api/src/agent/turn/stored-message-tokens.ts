import { createTokenCounter, type TokenCounter } from '@agentdesk/compressor';
import type { ChatMessage } from '@agentdesk/providers';
import type { HistoryMessage } from '@agentdesk/storage';
import { textOf, toolCallsOf, userContent } from './stored-messages';

/** What a stored count is computed from: the content as stored, nothing else. */
export type CountedContent = Pick<HistoryMessage, 'role' | 'contentParts' | 'toolCalls' | 'toolCallId'>;

/**
 * The one counter every stored count comes from: o200k (OpenAI's current encoding) without a
 * safety factor, so a count does not depend on the session's model at the time it was written.
 * A history budget scales it by the model's safety factor when it is spent.
 */
export const storedTokenCounter: TokenCounter = createTokenCounter({
  encoding: 'o200k_base',
  safetyFactor: 1,
});

/**
 * The message on its own in the provider-neutral shape. A tool result is counted without its
 * call's name (that lives on the assistant message, which counts it already).
 */
function standaloneChat(message: CountedContent): ChatMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: userContent(message.contentParts) };
    case 'system':
      return { role: 'system', content: textOf(message.contentParts) };
    case 'tool':
      return {
        role: 'tool',
        toolCallId: message.toolCallId ?? '',
        toolName: '',
        content: textOf(message.contentParts),
      };
    case 'assistant': {
      const toolCalls = toolCallsOf(message);
      return {
        role: 'assistant',
        content: textOf(message.contentParts),
        ...(toolCalls.length > 0 && { toolCalls }),
      };
    }
  }
}

/**
 * Tokens a stored message costs the model: content, tool calls and the per-message overhead,
 * counted once when the message is written (and stored with it) rather than on every later turn.
 */
export function storedMessageTokens(message: CountedContent): number {
  return storedTokenCounter.countMessage(standaloneChat(message));
}
