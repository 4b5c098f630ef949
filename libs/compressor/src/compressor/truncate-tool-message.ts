import type { ToolMessage } from '@agentdesk/providers';
import { flattenContent } from '../messages/flatten-content';
import { truncateText } from '../truncation/truncate-text';
import { compactTruncationNotice } from '../truncation/truncation-notice';
import {
  reportedTokens,
  storeResult,
  type CompressionContext,
  type ToolMessageTruncation,
} from './compression-context';

/** Budgets remembered per message; a scratchpad is usually re-compressed with the same few budgets. */
const MAX_MEMOIZED_TARGETS = 8;

/** Tokens a tool message costs with empty content: its id, tool name and the message overhead. */
export function toolMessageOverhead(context: CompressionContext, message: ToolMessage): number {
  return context.counter.countMessage({ ...message, content: '' });
}

/** Tokens of the smallest form of a truncated tool message: the compact notice naming `storedResultId`. */
export function minimalToolMessageTokens(
  context: CompressionContext,
  message: ToolMessage,
  storedResultId: string | undefined,
): number {
  const notice = compactTruncationNotice(
    context.language,
    flattenContent(message.content).length,
    storedResultId,
  );
  return toolMessageOverhead(context, message) + context.counter.countText(notice);
}

/**
 * Cuts one tool result to at most `targetTokens` (whole message), storing the original first (unless
 * the caller already did) so the notice can name it. Returns `undefined` when not even the compact
 * notice fits.
 */
export async function truncateToolMessage(
  context: CompressionContext,
  message: ToolMessage,
  targetTokens: number,
  newest: boolean,
  knownStoredResultId?: string,
): Promise<ToolMessageTruncation | undefined> {
  const memo = context.truncations.get(message);
  const cached = memo?.content === message.content ? memo.byTarget.get(targetTokens) : undefined;
  if (cached !== undefined && cached.item.newest === newest) return cached;

  const overhead = toolMessageOverhead(context, message);
  if (targetTokens - overhead <= 0) return undefined;
  const text = flattenContent(message.content);
  const before = reportedTokens(context, message, targetTokens);
  const storedResultId = knownStoredResultId ?? (await storeResult(context, message));
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
    context.truncations.set(message, {
      content: message.content,
      byTarget: new Map([[targetTokens, truncation]]),
    });
  } else {
    memo.byTarget.set(targetTokens, truncation);
  }
  return truncation;
}
