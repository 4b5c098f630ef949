import type { ChatMessage } from '@agentdesk/providers';
import { flattenContent } from '../messages/flatten-content';
import type { TokenCounter } from '../tokens/count-tokens';
import { truncateText } from '../truncation/truncate-text';
import type { NoticeLanguage } from '../truncation/truncation-notice';

/** No result is squeezed below this many tokens when rendering for the summarizer. */
const MINIMUM_RESULT_TOKENS = 64;

/**
 * Renders scratchpad entries as plain text for a summarizing model, within `budgetTokens`: calls
 * with their arguments, results cut head + tail (with an exact marker) so that older entries of
 * any size can be summarized without overflowing the summarizer's own context.
 */
export function renderEntriesForSummary(
  entries: readonly ChatMessage[],
  budgetTokens: number,
  counter: TokenCounter,
  language: NoticeLanguage,
): string {
  const results = entries.filter((entry) => entry.role === 'tool').length;
  const framing = entries
    .filter((entry) => entry.role !== 'tool')
    .map((entry) => counter.countText(renderOther(entry)))
    .reduce((sum, tokens) => sum + tokens, 0);
  const perResult = Math.max(
    MINIMUM_RESULT_TOKENS,
    Math.floor((budgetTokens - framing) / Math.max(1, results)),
  );
  const rendered = entries
    .map((entry) => {
      if (entry.role !== 'tool') return renderOther(entry);
      const text = flattenContent(entry.content);
      const fitted = truncateText(text, { targetTokens: perResult, counter, language, notice: false });
      const body = fitted === undefined ? `[${text.length} characters omitted]` : fitted.text;
      const status = entry.isError === true ? ' (error)' : '';
      return `Result of ${entry.toolName} (call ${entry.toolCallId})${status}:\n${body}`;
    })
    .join('\n\n');
  // Many calls, or long arguments, can still exceed the budget: cut the whole rendering as well.
  return truncateText(rendered, { targetTokens: budgetTokens, counter, language, notice: false })?.text ?? '';
}

function renderOther(entry: ChatMessage): string {
  if (entry.role !== 'assistant') return '';
  const text = flattenContent(entry.content).trim();
  const calls = (entry.toolCalls ?? []).map(
    (call) => `Call ${call.name} (call ${call.id}) with arguments ${call.arguments}`,
  );
  return [text === '' ? '' : `Assistant: ${text}`, ...calls].filter((line) => line !== '').join('\n');
}
