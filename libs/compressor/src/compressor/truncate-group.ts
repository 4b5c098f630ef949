import type { ChatMessage, ToolMessage } from '@agentdesk/providers';
import type { ScratchpadGroup } from '../messages/scratchpad-groups';
import { measure, type CompressionContext } from './compression-context';
import type { TruncatedItem } from './compression-event';
import { minimalToolMessageTokens, truncateToolMessage } from './truncate-tool-message';

/** A call group fitted into a budget. */
export type GroupFit =
  | { fitted: true; messages: ChatMessage[]; tokens: number; truncatedItems: TruncatedItem[] }
  | { fitted: false; requiredTokens: number };

/**
 * Fits a call group into `targetTokens`: the assistant message (the tool call) stays verbatim;
 * the results share what is left. Smaller results are kept whole first, so the budget they do not
 * use goes to the large ones, which are truncated with the notice. Never separates a result from
 * its call: the group comes back whole or not at all (`fitted: false`, with the smallest budget
 * that would have worked).
 */
export async function fitGroup(
  context: CompressionContext,
  group: ScratchpadGroup,
  targetTokens: number,
  newest: boolean,
): Promise<GroupFit> {
  const results = new Set<ChatMessage>(group.results);
  let fixedTokens = 0;
  for (const message of group.messages) if (!results.has(message)) fixedTokens += context.counter.countMessage(message);
  const required = (): number => {
    let total = fixedTokens;
    for (const result of group.results) {
      const minimal = minimalToolMessageTokens(context, result);
      // Counting stops at `minimal`: a 100 MB result is not tokenized to learn it is large.
      const measured = measure(context, result, minimal);
      total += measured.exact && !measured.overCharacterCap ? Math.min(minimal, measured.tokens) : minimal;
    }
    return total;
  };
  if (fixedTokens > targetTokens) return { fitted: false, requiredTokens: required() };

  const needs = group.results.map((result) => ({ result, measured: measure(context, result, targetTokens) }));
  const order = [...needs].sort((left, right) => left.measured.tokens - right.measured.tokens);
  const replaced = new Map<ToolMessage, ToolMessage>();
  const truncatedItems: TruncatedItem[] = [];
  let remaining = targetTokens - fixedTokens;
  for (let index = 0; index < order.length; index++) {
    const { result, measured } = order[index]!;
    const share = Math.floor(remaining / (order.length - index));
    if (measured.exact && measured.tokens <= share && !measured.overCharacterCap) {
      remaining -= measured.tokens;
      continue;
    }
    const truncation = await truncateToolMessage(context, result, share, newest);
    if (truncation === undefined) return { fitted: false, requiredTokens: required() };
    replaced.set(result, truncation.message);
    truncatedItems.push(truncation.item);
    remaining -= truncation.item.tokensAfter;
  }
  const messages = group.messages.map((message) =>
    message.role === 'tool' ? (replaced.get(message) ?? message) : message,
  );
  return { fitted: true, messages, tokens: targetTokens - remaining, truncatedItems };
}
