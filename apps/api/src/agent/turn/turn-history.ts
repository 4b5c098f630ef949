import type { ChatMessage } from '@agentdesk/providers';
import type { HistoryMessage, Repositories } from '@agentdesk/storage';
import { storedMessageTokens } from './stored-message-tokens';
import { storedMessagesToChat } from './stored-messages';

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

/**
 * Reads the history a turn needs and nothing more: complete messages only, the columns a model
 * call uses, walking backwards page by page until the budget is spent — so the cost of a turn
 * stops growing with the session once its history fills the budget. Rows written before token
 * counts were stored are counted here and their counts written back (once).
 */
export async function loadTurnHistory(
  messages: Repositories['messages'],
  request: HistoryRequest,
): Promise<ChatMessage[]> {
  const newestFirst: CountedMessage[] = [];
  const backfill: Array<{ messageId: string; tokenCount: number }> = [];
  let used = 0;
  let beforeSeq = request.beforeSeq;
  let limit = HISTORY_PAGE_SIZE;
  for (;;) {
    const page = await messages.completeHistoryBefore(request.ownerUserId, request.sessionId, {
      beforeSeq,
      limit,
    });
    for (const message of page) {
      let raw = message.tokenCount;
      if (raw === null) {
        raw = storedMessageTokens(message);
        backfill.push({ messageId: message.id, tokenCount: raw });
      }
      const tokens = inBudgetMeasure(raw, request.safetyFactor);
      newestFirst.push({ message, tokens });
      used += tokens;
      if (used > request.budgetTokens) break;
    }
    if (used > request.budgetTokens || page.length < limit) break;
    beforeSeq = page[page.length - 1]!.seq;
    // Size the next read by what the messages so far cost: a long session of short messages takes
    // one or two round trips, not one per 64 rows.
    const averageTokens = Math.max(1, used / newestFirst.length);
    limit = Math.min(
      MAX_HISTORY_PAGE_SIZE,
      Math.max(HISTORY_PAGE_SIZE, Math.ceil(((request.budgetTokens - used) / averageTokens) * 1.25) + 1),
    );
  }
  if (backfill.length > 0)
    await messages.fillMissingTokenCounts(request.ownerUserId, request.sessionId, backfill);
  return storedMessagesToChat(
    historyWindow(newestFirst, request.budgetTokens).map((message) => ({ ...message, status: 'complete' })),
  );
}
