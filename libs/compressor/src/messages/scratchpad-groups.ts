import type { AssistantMessage, ChatMessage, ToolMessage } from '@agentdesk/providers';

/**
 * One unit the compressor never splits: an assistant message with its tool calls plus the tool
 * messages answering them (providers reject a call without its result, and a result without its
 * call, with a 400). An assistant message without tool calls, or a tool message whose call is not
 * in the scratchpad, is a group of its own.
 */
export interface ScratchpadGroup {
  /** The messages in their original order. */
  messages: ChatMessage[];
  /** The assistant message that made the calls, if any. */
  call?: AssistantMessage;
  /** The tool results, in their original order. */
  results: ToolMessage[];
}

/** Thrown when the scratchpad holds a message the compressor must not touch (system or user). */
export class ScratchpadInputError extends TypeError {
  override readonly name = 'ScratchpadInputError';
}

/**
 * Groups scratchpad messages into call/result units. Throws {@link ScratchpadInputError} for system
 * or user messages: those are never compressed, so they do not belong in the scratchpad (see
 * {@link splitScratchpad}).
 */
export function groupScratchpad(entries: readonly ChatMessage[]): ScratchpadGroup[] {
  const groups: ScratchpadGroup[] = [];
  for (let index = 0; index < entries.length;) {
    const message = entries[index]!;
    if (message.role === 'system' || message.role === 'user') {
      throw new ScratchpadInputError(
        `scratchpad entry ${index} is a ${message.role} message; the scratchpad holds only assistant and tool messages ` +
          '(use splitScratchpad to separate a conversation).',
      );
    }
    index += 1;
    if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) {
      const pending = new Set(message.toolCalls!.map((call) => call.id));
      const group: ScratchpadGroup = { messages: [message], call: message, results: [] };
      while (index < entries.length && pending.size > 0) {
        const next = entries[index]!;
        if (next.role !== 'tool' || !pending.has(next.toolCallId)) break;
        pending.delete(next.toolCallId);
        group.messages.push(next);
        group.results.push(next);
        index += 1;
      }
      groups.push(group);
      continue;
    }
    groups.push({ messages: [message], results: message.role === 'tool' ? [message] : [] });
  }
  return groups;
}

/**
 * Splits a conversation into what precedes the scratchpad (system prompt, user messages and the
 * turns before the last user message) and the scratchpad itself: the assistant and tool messages
 * after the last system or user message. Compress the scratchpad only and append it to `prefix`;
 * the prefix is returned as the same message objects, untouched.
 */
export function splitScratchpad(messages: readonly ChatMessage[]): {
  prefix: ChatMessage[];
  scratchpad: ChatMessage[];
} {
  let start = messages.length;
  while (start > 0) {
    const role = messages[start - 1]!.role;
    if (role === 'system' || role === 'user') break;
    start -= 1;
  }
  return { prefix: messages.slice(0, start), scratchpad: messages.slice(start) };
}
