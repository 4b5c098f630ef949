import type { ChatMessage } from '@agentdesk/providers';
import type { HistoryMessage, Repositories } from '@agentdesk/storage';
import { storedMessageTokens } from './stored-message-tokens';
import { storedMessagesToChat } from './stored-messages';
import type { CachedHistory, CountedHistoryMessage, TurnHistoryCache } from './turn-history-cache';

/** Rows of the first read while walking the transcript backwards (and the least of any later one). */
export const HISTORY_PAGE_SIZE = 64;
/** The most rows one read asks for. */
export const MAX_HISTORY_PAGE_SIZE = 1000;

/** Which history a turn's model calls see. */
export interface HistoryRequest {
  readonly ownerUserId: string;
  readonly sessionId: string;
  /** The turn's own user message: only what came before it. */
  readonly beforeSeq: number;
  /** Tokens the earlier conversation may take in each model call (in the model's own measure). */
  readonly budgetTokens: number;
  /** The model's tokenizer safety factor (stored counts are raw o200k counts). */
  readonly safetyFactor: number;
}

/** A message and what it costs within the budget. */
interface CountedMessage {
  readonly message: HistoryMessage;
  readonly tokens: number;
}

/**
 * The newest stretch of the conversation that fits the budget, oldest first, starting at a user
 * message (so the model never sees a reply or a tool result without what it answered). Takes the
 * messages newest first and stops at the first one that would overflow: a message is never cut.
 * When the whole transcript fits, this is the whole transcript.
 */
export function historyWindow(
  newestFirst: readonly CountedMessage[],
  budgetTokens: number,
): HistoryMessage[] {
  const window: HistoryMessage[] = [];
  let used = 0;
  let complete = true;
  for (const { message, tokens } of newestFirst) {
    if (used + tokens > budgetTokens) {
      complete = false;
      break;
    }
    used += tokens;
    window.push(message);
  }
  window.reverse();
  if (complete) return window;
  const firstUser = window.findIndex((message) => message.role === 'user');
  return firstUser < 0 ? [] : window.slice(firstUser);
}

/** A stored (raw o200k) count in the model's measure. */
function inBudgetMeasure(raw: number, safetyFactor: number): number {
  return safetyFactor === 1 ? raw : Math.ceil(raw * safetyFactor);
}

/** What walking the transcript backwards found: enough for the budget, or everything there is (back to the start or to `afterSeq`). */
interface HistoryWalk {
  readonly newestFirst: CountedHistoryMessage[];
  readonly reachedStart: boolean;
}

/**
 * Reads the history a turn needs and nothing more: complete messages only, the columns a model
 * call uses, walking backwards page by page until the budget is spent — so the cost of a turn
 * stops growing with the session once its history fills the budget. With a cache, only the
 * messages written since the session's previous turn are read (see `TurnHistoryCache`). Rows
 * written before token counts were stored are counted here and their counts written back (once).
 */
export async function loadTurnHistory(
  transcript: Repositories['transcript'],
  request: HistoryRequest,
  cache?: TurnHistoryCache,
): Promise<ChatMessage[]> {
  const backfill: Array<{ messageId: string; tokenCount: number }> = [];
  const cached = cache?.get(request.ownerUserId, request.sessionId);
  let walk: HistoryWalk | undefined;
  if (
    cached !== undefined &&
    cached.throughSeq < request.beforeSeq &&
    cached.budgetTokens === request.budgetTokens &&
    cached.safetyFactor === request.safetyFactor
  ) {
    // Usually the previous turn's two rows; never more than the budget (another replica may have
    // run many turns since), and then the cached ones are not needed at all.
    const since = await walkBack(transcript, request, backfill, cached.throughSeq);
    walk = extendCached(since.newestFirst, cached, request);
  }
  walk ??= await walkBack(transcript, request, backfill);
  if (backfill.length > 0)
    await transcript.fillMissingTokenCounts(request.ownerUserId, request.sessionId, backfill);
  cache?.set(request.ownerUserId, request.sessionId, {
    throughSeq: request.beforeSeq - 1,
    newestFirst: walk.newestFirst,
    reachedStart: walk.reachedStart,
    budgetTokens: request.budgetTokens,
    safetyFactor: request.safetyFactor,
  });
  const counted = walk.newestFirst.map(({ message, rawTokens }) => ({
    message,
    tokens: inBudgetMeasure(rawTokens, request.safetyFactor),
  }));
  return storedMessagesToChat(
    historyWindow(counted, request.budgetTokens).map((message) => ({ ...message, status: 'complete' })),
  );
}

/**
 * Complete messages before the turn's own, newest first, until the budget is spent or there are
 * no more (none at or before `afterSeq`, when given: what the cached read already had).
 */
async function walkBack(
  transcript: Repositories['transcript'],
  request: HistoryRequest,
  backfill: Array<{ messageId: string; tokenCount: number }>,
  afterSeq?: number,
): Promise<HistoryWalk> {
  const newestFirst: CountedHistoryMessage[] = [];
  let used = 0;
  let beforeSeq = request.beforeSeq;
  let limit = HISTORY_PAGE_SIZE;
  for (;;) {
    const page = await transcript.completeHistoryBefore(request.ownerUserId, request.sessionId, {
      beforeSeq,
      limit,
      ...(afterSeq !== undefined && { afterSeq }),
    });
    for (const message of page) {
      let raw = message.tokenCount;
      if (raw === null) {
        raw = storedMessageTokens(message);
        backfill.push({ messageId: message.id, tokenCount: raw });
      }
      newestFirst.push({ message, rawTokens: raw });
      used += inBudgetMeasure(raw, request.safetyFactor);
      if (used > request.budgetTokens) return { newestFirst, reachedStart: false };
    }
    if (page.length < limit) return { newestFirst, reachedStart: true };
    beforeSeq = page[page.length - 1]!.seq;
    // Size the next read by what the messages so far cost: a long session of short messages takes
    // one or two round trips, not one per 64 rows.
    const averageTokens = Math.max(1, used / newestFirst.length);
    limit = Math.min(
      MAX_HISTORY_PAGE_SIZE,
      Math.max(HISTORY_PAGE_SIZE, Math.ceil(((request.budgetTokens - used) / averageTokens) * 1.25) + 1),
    );
  }
}

/**
 * The new messages in front of the cached ones, cut where the budget overflows — exactly what a
 * full walk would have read. Undefined when the cached messages run out before the budget does
 * and they do not reach the session's start (then the transcript is walked again).
 */
function extendCached(
  since: readonly CountedHistoryMessage[],
  cached: CachedHistory,
  request: HistoryRequest,
): HistoryWalk | undefined {
  const newestFirst: CountedHistoryMessage[] = [];
  let used = 0;
  for (const counted of [since, cached.newestFirst].flat()) {
    newestFirst.push(counted);
    used += inBudgetMeasure(counted.rawTokens, request.safetyFactor);
    if (used > request.budgetTokens) return { newestFirst, reachedStart: false };
  }
  return cached.reachedStart ? { newestFirst, reachedStart: true } : undefined;
}
