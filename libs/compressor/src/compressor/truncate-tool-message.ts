import type { ToolMessage } from '@agentdesk/providers';
import { flattenContent } from '../messages/flatten-content';
import { truncateText } from '../truncation/truncate-text';
import { compactTruncationNotice } from '../truncation/truncation-notice';
import { reportedTokens, type CompressionContext, type ToolMessageTruncation } from './compression-context';

/** Budgets remembered per message; a scratchpad is usually re-compressed with the same few budgets. */
const MAX_MEMOIZED_TARGETS = 8;

/** Tokens a tool message costs with empty content: its id, tool name and the message overhead. */
export function toolMessageOverhead(context: CompressionContext, message: ToolMessage): number {
  return context.counter.countMessage({ ...message, content: '' });
}

/** Tokens of the smallest form of a truncated tool message (the compact notice alone). */
export function minimalToolMessageTokens(context: CompressionContext, message: ToolMessage): number {
  // A placeholder id as long as real ones keeps the estimate honest when a store names the original.
  const placeholderId = context.store === undefined ? undefined : 'tr_000000000000000000000000';
  const notice = compactTruncationNotice(context.language, Math.max(1, flattenContent(message.content).length), placeholderId);
  return toolMessageOverhead(context, message) + context.counter.countText(notice);
}

/**
 * Cuts one tool result to at most `targetTokens` (whole message), storing the original first so
 * the notice can name it. Returns `undefined` when not even the compact notice fits.
 */
export async function truncateToolMessage(
  context: CompressionContext,
  message: ToolMessage,
  targetTokens: number,
  newest: boolean,
): Promise<ToolMessageTruncation | undefined> {
  const memo = context.truncations.get(message);
  const cached = memo?.content === message.content ? memo.byTarget.get(targetTokens) : undefined;
  if (cached !== undefined && cached.item.newest === newest) return cached;

  const overhead = toolMessageOverhead(context, message);
  if (targetTokens - overhead <= 0) return undefined;
  const text = flattenContent(message.content);
  const before = reportedTokens(context, message, targetTokens);
  const storedResultId =
    context.store === undefined
      ? undefined
      : await context.store.put({ toolCallId: message.toolCallId, toolName: message.toolName, content: text });
  const outcome = truncateText(text, {
    targetTokens: targetTokens - overhead,
    counter: context.counter,
    language: context.language,
    headShare: context.headShare,
    maxCharacters: context.maxMessageCharacters,
    ...(storedResultId === undefined ? {} : { storedResultId }),
  });
  if (outcome === undefined || !outcome.truncated) return undefined;

  const truncatedMessage: ToolMessage = { ...message, content: outcome.text };
  const truncation: ToolMessageTruncation = {
    message: truncatedMessage,
    item: {
      toolCallId: message.toolCallId,
      toolName: message.toolName,
      ...(storedResultId === undefined ? {} : { storedResultId }),
      newest,
      strategy: outcome.strategy,
      originalCharacters: outcome.originalCharacters,
      keptCharacters: outcome.keptCharacters,
      omittedCharacters: outcome.stats.characters,
      ...(outcome.stats.lines === undefined ? {} : { omittedLines: outcome.stats.lines }),
      ...(outcome.stats.items === undefined
        ? {}
        : { omittedItems: outcome.stats.items.omitted, totalItems: outcome.stats.items.total }),
      tokensBefore: before.tokens,
      tokensBeforeExact: before.exact,
      tokensAfter: context.counter.countMessage(truncatedMessage),
    },
  };
  if (memo === undefined || memo.content !== message.content || memo.byTarget.size >= MAX_MEMOIZED_TARGETS) {
    context.truncations.set(message, { content: message.content, byTarget: new Map([[targetTokens, truncation]]) });
  } else {
    memo.byTarget.set(targetTokens, truncation);
  }
  return truncation;
}
