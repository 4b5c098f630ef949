import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { messageText } from '../types/message-text';
import type { ChatMessage, UserContentPart } from '../types/messages';
import { parseToolArguments } from '../core/parse-tool-arguments';

export interface AnthropicConversation {
  system: string | undefined;
  messages: MessageParam[];
}

/** Anthropic tool ids must match `^[a-zA-Z0-9_-]+$`; ids minted by other providers may not. */
export function toAnthropicToolId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function toImageBlock(part: Extract<UserContentPart, { type: 'image' }>): ImageBlockParam {
  if ('url' in part) return { type: 'image', source: { type: 'url', url: part.url } };
  return {
    type: 'image',
    // Sent as the caller gave it; the API, not this layer, rejects a media type it does not take.
    source: {
      type: 'base64',
      media_type: part.mediaType as Base64ImageSource['media_type'],
      data: part.data,
    },
  };
}

/**
 * Anthropic lifts system prompts to a top-level `system` field, puts tool calls in the assistant's
 * content as `tool_use` blocks and tool results in the next user turn as `tool_result` blocks.
 * Consecutive tool results are merged into that one user turn, as the API expects.
 */
export function convertToAnthropicMessages(messages: readonly ChatMessage[]): AnthropicConversation {
  const systemTexts: string[] = [];
  const converted: MessageParam[] = [];
  let pendingToolResults: ToolResultBlockParam[] | undefined;

  const flushToolResults = () => {
    if (pendingToolResults) converted.push({ role: 'user', content: pendingToolResults });
    pendingToolResults = undefined;
  };

  for (const message of messages) {
    if (message.role === 'tool') {
      pendingToolResults ??= [];
      pendingToolResults.push({
        type: 'tool_result',
        tool_use_id: toAnthropicToolId(message.toolCallId),
        content: messageText(message),
        ...(message.isError && { is_error: true }),
      });
      continue;
    }
    flushToolResults();
    switch (message.role) {
      case 'system':
        systemTexts.push(message.content);
        break;
      case 'user':
        converted.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? message.content
              : message.content.map((part) =>
                  part.type === 'text' ? { type: 'text', text: part.text } : toImageBlock(part),
                ),
        });
        break;
      case 'assistant': {
        const text = messageText(message);
        if (!message.toolCalls?.length) {
          converted.push({ role: 'assistant', content: text });
          break;
        }
        const blocks: ContentBlockParam[] = text === '' ? [] : [{ type: 'text', text }];
        for (const call of message.toolCalls) {
          blocks.push({
            type: 'tool_use',
            id: toAnthropicToolId(call.id),
            name: call.name,
            input: parseToolArguments(call.arguments),
          });
        }
        converted.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  flushToolResults();
  return { system: systemTexts.length ? systemTexts.join('\n\n') : undefined, messages: converted };
}
