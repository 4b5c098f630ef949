import type { ChatMessage, ToolMessage } from '@agentdesk/providers';
import type { ScratchpadGroup } from '../messages/scratchpad-groups';
import { measure, storeResult, type CompressionContext } from './compression-context';
import type { TruncatedItem } from './compression-event';
import { minimalToolMessageTokens, truncateToolMessage } from './truncate-tool-message';

/** A call group fitted into a budget. */
export type GroupFit =
  | { fitted: true; messages: ChatMessage[]; tokens: number; truncatedItems: TruncatedItem[] }
  | { fitted: false; requiredTokens: number };

interface ResultNeed {
  result: ToolMessage;
  /** Tokens to keep it whole; infinite when it cannot be kept whole (over the budget or the character cap). */
  whole: number;
  /** Tokens it gets in any case: whole when small, else its compact-notice form. */
  floor: number;
  storedResultId?: string;
}

/**
 * Fits a call group into `targetTokens`: the assistant message (the tool call) stays verbatim;
 * the results share what is left. Each result first gets its floor (itself when tiny, else the
 * compact INCOMPLETE notice); the surplus then goes to the results needing the least extra first,
 * so small results stay whole and the large ones are truncated into what remains. The group comes
 * back whole or not at all (`fitted: false`, with the exact smallest budget that fits it), so a
 * result is never separated from its call.
 */
export async function fitGroup(
  context: CompressionContext,
  group: ScratchpadGroup,
  targetTokens: number,
  newest: boolean,
): Promise<GroupFit> {
  const results = new Set<ChatMessage>(group.results);
  let fixedTokens = 0;
  for (const message of group.messages)
    if (!results.has(message)) fixedTokens += context.counter.countMessage(message);

  const needs: ResultNeed[] = [];
  for (const result of group.results)
    needs.push(await needOf(context, result, Math.max(0, targetTokens - fixedTokens)));
  const requiredTokens = needs.reduce((sum, need) => sum + need.floor, fixedTokens);
  if (requiredTokens > targetTokens) return { fitted: false, requiredTokens };

  const order = [...needs].sort((left, right) => left.whole - left.floor - (right.whole - right.floor));
  const replaced = new Map<ToolMessage, ToolMessage>();
  const truncatedItems: TruncatedItem[] = [];
  let surplus = targetTokens - requiredTokens;
  for (let index = 0; index < order.length; index++) {
    const need = order[index]!;
    const extraShare = Math.floor(surplus / (order.length - index));
    const extra = need.whole - need.floor;
    if (extra <= extraShare) {
      surplus -= extra;
      continue;
    }
    const truncation = await truncateToolMessage(
      context,
      need.result,
      need.floor + extraShare,
      newest,
      need.storedResultId,
    );
    // Unreachable while floors are exact (the compact notice always fits its floor); kept as a guard.
    if (truncation === undefined) return { fitted: false, requiredTokens: requiredTokens + 1 };
    replaced.set(need.result, truncation.message);
    truncatedItems.push(truncation.item);
    surplus -= truncation.item.tokensAfter - need.floor;
  }
  const messages = group.messages.map((message) =>
    message.role === 'tool' ? (replaced.get(message) ?? message) : message,
  );
  return { fitted: true, messages, tokens: targetTokens - surplus, truncatedItems };
}

async function needOf(context: CompressionContext, result: ToolMessage, limit: number): Promise<ResultNeed> {
  const measured = measure(context, result, limit);
  const whole = measured.exact && !measured.overCharacterCap ? measured.tokens : Number.POSITIVE_INFINITY;
  // A result smaller than even the id-less compact notice is never cut: no need to store it.
  if (whole <= minimalToolMessageTokens(context, result, undefined)) return { result, whole, floor: whole };
  const storedResultId = await storeResult(context, result);
  const floor = Math.min(whole, minimalToolMessageTokens(context, result, storedResultId));
  return { result, whole, floor, ...(storedResultId === undefined ? {} : { storedResultId }) };
}
