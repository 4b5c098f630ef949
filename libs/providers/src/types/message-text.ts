import type { AssistantMessage, ToolMessage, UserMessage } from './messages';

/** The text of a message, with text parts joined (images contribute nothing). */
export function messageText(message: Pick<UserMessage | AssistantMessage | ToolMessage, 'content'>): string {
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}
