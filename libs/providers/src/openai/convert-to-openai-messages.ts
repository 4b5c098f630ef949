import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { messageText } from '../types/message-text';
import type { ChatMessage, UserContentPart } from '../types/messages';

function toContentPart(part: UserContentPart): ChatCompletionContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const url = 'url' in part ? part.url : `data:${part.mediaType};base64,${part.data}`;
  return { type: 'image_url', image_url: { url } };
}

/** OpenAI takes the system role inline, tool calls on the assistant message and one message per tool result. */
export function convertToOpenAIMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.map(toContentPart),
        };
      case 'assistant': {
        const text = messageText(message);
        if (!message.toolCalls?.length) return { role: 'assistant', content: text };
        return {
          role: 'assistant',
          content: text === '' ? null : text,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: messageText(message) };
    }
  });
}
