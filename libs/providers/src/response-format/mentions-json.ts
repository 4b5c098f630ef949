import type { ChatMessage } from '../types/messages';

/** The instruction added when OpenAI's JSON mode would otherwise reject the call. */
export const jsonInstruction = 'Respond with a single valid JSON object.';

/** True when some message's text contains "json" in any case, which OpenAI's JSON mode requires. */
export function messagesMentionJson(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => {
    if (typeof message.content === 'string') return /json/i.test(message.content);
    return message.content.some((part) => part.type === 'text' && /json/i.test(part.text));
  });
}
