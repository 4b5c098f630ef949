import type {
  ChatCompletionOptions,
  ChatMessage,
  ResponseFormat,
  ToolChoice,
  UserContentPart,
} from '@agentdesk/providers';
import type { ChatCompletionRequest } from './chat-completion-request';

type RequestMessage = ChatCompletionRequest['messages'][number];

const joinText = (content: string | readonly { text: string }[] | null | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text).join('');

const dataUrl = /^data:([^;,]+);base64,(.*)$/s;

function toUserContent(
  content: Extract<RequestMessage, { role: 'user' }>['content'],
): string | UserContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((part): UserContentPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    const inline = dataUrl.exec(part.image_url.url);
    return inline
      ? { type: 'image', mediaType: inline[1]!, data: inline[2]! }
      : { type: 'image', url: part.image_url.url };
  });
}

/**
 * OpenAI messages to the provider-neutral form. Tool messages need the tool's name (Gemini matches
 * results by name), which OpenAI only carries on the assistant's call, so it is looked up there.
 */
export function toChatMessages(messages: ChatCompletionRequest['messages']): ChatMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: joinText(message.content) };
      case 'user':
        return { role: 'user', content: toUserContent(message.content) };
      case 'assistant': {
        const toolCalls = (message.tool_calls ?? []).map((call) => {
          toolNames.set(call.id, call.function.name);
          return { id: call.id, name: call.function.name, arguments: call.function.arguments };
        });
        return {
          role: 'assistant',
          content: joinText(message.content),
          ...(toolCalls.length && { toolCalls }),
        };
      }
      case 'tool':
        return {
          role: 'tool',
          toolCallId: message.tool_call_id,
          toolName: toolNames.get(message.tool_call_id) ?? 'unknown_tool',
          content: joinText(message.content),
        };
    }
  });
}

function toToolChoice(choice: NonNullable<ChatCompletionRequest['tool_choice']>): ToolChoice {
  return typeof choice === 'string' ? choice : { name: choice.function.name };
}

/** An OpenAI Chat Completions request as `executeChatCompletion` options (without the signal). */
export function toChatOptions(request: ChatCompletionRequest): ChatCompletionOptions {
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  return {
    modelParams: { model: request.model },
    messages: toChatMessages(request.messages),
    ...(request.temperature != null && { temperature: request.temperature }),
    ...(maxTokens !== undefined && { maxTokens }),
    ...(request.response_format && { responseFormat: request.response_format as ResponseFormat }),
    ...(request.tools?.length && {
      tools: request.tools.map((tool) => ({
        name: tool.function.name,
        ...(tool.function.description !== undefined && { description: tool.function.description }),
        parameters: tool.function.parameters ?? { type: 'object', properties: {} },
      })),
    }),
    ...(request.tool_choice !== undefined && { toolChoice: toToolChoice(request.tool_choice) }),
  };
}
