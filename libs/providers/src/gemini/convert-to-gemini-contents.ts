import type { Content, Part } from '@google/generative-ai';
import { parseToolArguments } from '../core/parse-tool-arguments';
import { messageText } from '../types/message-text';
import type { ChatMessage, UserContentPart } from '../types/messages';
import type { ChatWarning } from '../types/result';

export interface GeminiConversation {
  systemInstruction: Content | undefined;
  contents: Content[];
}

function toPart(part: UserContentPart, warnings: ChatWarning[]): Part {
  if (part.type === 'text') return { text: part.text };
  if ('data' in part) return { inlineData: { mimeType: part.mediaType, data: part.data } };
  if (part.mediaType) return { fileData: { mimeType: part.mediaType, fileUri: part.url } };
  warnings.push({
    type: 'unsupported-setting',
    setting: 'messages',
    message: `Gemini needs a media type for image URLs; sent ${part.url} as text`,
  });
  return { text: part.url };
}

/**
 * Gemini takes the system prompt as `systemInstruction`, calls roles `user`/`model`, matches tool
 * results to calls by function name, and wants turns of the same role merged into one content.
 */
export function convertToGeminiContents(
  messages: readonly ChatMessage[],
  warnings: ChatWarning[],
): GeminiConversation {
  const systemTexts: string[] = [];
  const contents: Content[] = [];
  const append = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemTexts.push(message.content);
        break;
      case 'user':
        append(
          'user',
          typeof message.content === 'string'
            ? [{ text: message.content }]
            : message.content.map((part) => toPart(part, warnings)),
        );
        break;
      case 'assistant': {
        const text = messageText(message);
        const parts: Part[] = text === '' ? [] : [{ text }];
        for (const call of message.toolCalls ?? []) {
          parts.push({ functionCall: { name: call.name, args: parseToolArguments(call.arguments) } });
        }
        append('model', parts.length ? parts : [{ text: '' }]);
        break;
      }
      case 'tool':
        append('user', [
          {
            functionResponse: {
              name: message.toolName,
              response: message.isError ? { error: messageText(message) } : { content: messageText(message) },
            },
          },
        ]);
        break;
    }
  }
  return {
    systemInstruction: systemTexts.length
      ? { role: 'system', parts: [{ text: systemTexts.join('\n\n') }] }
      : undefined,
    contents,
  };
}
