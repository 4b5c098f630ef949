import type { ChatMessage } from '../types/messages';
import type { ValidationIssue } from '../schema/validate-json';

/** The follow-up turn of the opt-in repair: the model sees its answer and exactly what failed. */
export function repairMessages(
  messages: readonly ChatMessage[],
  answer: string,
  errors: readonly ValidationIssue[],
): ChatMessage[] {
  const problems = errors.map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`).join('\n');
  return [
    ...messages,
    { role: 'assistant', content: answer },
    {
      role: 'user',
      content: `That JSON does not satisfy the required schema:\n${problems}\nReply with the corrected JSON only.`,
    },
  ];
}
