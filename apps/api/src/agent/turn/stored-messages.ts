import type {
  AssistantMessage,
  ChatMessage,
  TextPart,
  ToolCall,
  UserContentPart,
} from '@agentdesk/providers';
import type { StoredContentPart } from '@agentdesk/api-contract';
import type { HistoryMessage, Message, MessageStatus } from '@agentdesk/storage';

/** What rebuilding the conversation needs of a stored message (a full `Message` or a history read). */
export type TranscriptEntry = Pick<
  HistoryMessage,
  'role' | 'contentParts' | 'toolCalls' | 'toolCallId' | 'isError'
> & { readonly status: MessageStatus };

/** A full stored message as a {@link TranscriptEntry}. */
export function transcriptEntryOf(message: Message): TranscriptEntry {
  return {
    role: message.role,
    status: message.status,
    contentParts: message.contentParts,
    toolCalls: message.toolCalls,
    toolCallId: message.toolCallId,
    isError: message.error !== null,
  };
}

/** Stored content parts back to the provider-neutral shape. */
export function textOf(parts: readonly StoredContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function userContent(parts: readonly StoredContentPart[]): string | UserContentPart[] {
  if (parts.length === 1 && parts[0]?.type === 'text') return textOf(parts);
  return [...parts];
}

export function toolCallsOf(message: Pick<TranscriptEntry, 'toolCalls'>): ToolCall[] {
  return [...(message.toolCalls ?? [])];
}

/** The placeholder a provider gets for a tool call whose result was never recorded (a crash mid-tool). */
export const missingToolResultText = 'No result was recorded for this tool call (the turn was interrupted).';

/**
 * Rebuilds the conversation the model sees from the stored transcript: complete messages only
 * (failed and pending answers are history for the console, not for the model), and never an
 * orphan — a tool call without a recorded result gets a placeholder result, and a result whose
 * call is not in the history is left out. Providers answer 400 to either.
 */
export function storedMessagesToChat(messages: readonly TranscriptEntry[]): ChatMessage[] {
  const chat: ChatMessage[] = [];
  let openCalls = new Map<string, ToolCall>();
  const closeOpenCalls = () => {
    for (const call of openCalls.values()) {
      chat.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: missingToolResultText,
        isError: true,
      });
    }
    openCalls = new Map();
  };
  for (const message of messages) {
    if (message.status !== 'complete') continue;
    if (message.role === 'tool') {
      const call = message.toolCallId ? openCalls.get(message.toolCallId) : undefined;
      if (!call) continue;
      openCalls.delete(call.id);
      chat.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: textOf(message.contentParts),
        ...(message.isError && { isError: true }),
      });
      continue;
    }
    closeOpenCalls();
    if (message.role === 'user') chat.push({ role: 'user', content: userContent(message.contentParts) });
    else if (message.role === 'system') chat.push({ role: 'system', content: textOf(message.contentParts) });
    else {
      const toolCalls = toolCallsOf(message);
      const assistant: AssistantMessage = { role: 'assistant', content: textOf(message.contentParts) };
      if (toolCalls.length) {
        assistant.toolCalls = toolCalls;
        openCalls = new Map(toolCalls.map((call) => [call.id, call]));
      }
      chat.push(assistant);
    }
  }
  closeOpenCalls();
  return chat;
}

/** Provider-neutral content to stored content parts. */
export function toContentParts(
  content: string | readonly (UserContentPart | TextPart)[],
): StoredContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => ({ ...part }));
}
