import type { ChatMessage } from '@agentdesk/providers';
import { groupScratchpad } from '../messages/scratchpad-groups';
import type { ToolResultStore } from '../store/tool-result-store';
import type { Summarizer } from '../summarizer/summarizer';
import { createTokenCounter, type TokenCounter } from '../tokens/count-tokens';
import { DEFAULT_HEAD_SHARE, DEFAULT_MAX_MESSAGE_CHARACTERS } from '../truncation/truncate-text';
import type { NoticeLanguage } from '../truncation/truncation-notice';
import { compressOlderEntries } from './compress-older-entries';
import { fitsAsIs, reportedTokens, type CompressionContext } from './compression-context';
import type {
  CompressionEvent,
  CompressionMethod,
  SummarizerReport,
  TruncatedItem,
} from './compression-event';
import { ScratchpadBudgetError } from './scratchpad-budget-error';
import { fitGroup } from './truncate-group';

/** Options of {@link ScratchpadCompressor}. */
export interface ScratchpadCompressorOptions {
  /** The counter every budget decision and check uses. Default: {@link createTokenCounter} for `model`. */
  counter?: TokenCounter;
  /** Model the scratchpad is sent to; picks the default counter's encoding. Default `gpt-4o`. */
  model?: string;
  /** Summarizes older entries; without one they are truncated deterministically. */
  summarizer?: Summarizer;
  /** Keeps the originals of cut and removed tool results; the texts then name their ids. */
  store?: ToolResultStore;
  /** Language of notices, markers and notes. Default `en`. */
  language?: NoticeLanguage;
  /** The summary is abandoned (and truncation used) after this long. Default 30 s. */
  summaryTimeoutMs?: number;
  /** Share of a truncated result's tokens kept from its start. Default 0.6 (the rest from its end). */
  headShare?: number;
  /**
   * When the newest group alone is over budget and older entries exist, the share of the budget
   * kept for them (at most what they need). Default 0.2: the newest result is still cut, but the
   * history is not starved to zero.
   */
  olderEntriesShare?: number;
  /** Per-message character cap. Default 8,000,000 (OpenAI rejects over 10,485,760). */
  maxMessageCharacters?: number;
  /** Below this many tokens for the summary, the summarizer is not called. Default 64. */
  minimumSummaryTokens?: number;
  /** Clock for the event's `at`. */
  now?: () => Date;
}

/** Input of {@link ScratchpadCompressor.compress}. */
export interface CompressScratchpadInput {
  /** The scratchpad: assistant messages with tool calls, their tool results, and assistant notes. No system or user messages. */
  entries: readonly ChatMessage[];
  /** Tokens the scratchpad may use, as measured by the compressor's counter. */
  budgetTokens: number;
  /** Aborts the summary (the compression then falls back to truncation). */
  signal?: AbortSignal;
}

/** Output of {@link ScratchpadCompressor.compress}. */
export interface CompressionResult {
  /** The scratchpad to send (the same message objects, in a new array, when nothing had to change). */
  messages: ChatMessage[];
  event: CompressionEvent;
}

/**
 * Keeps an agent's tool scratchpad inside a token budget.
 *
 * - Within budget (and under the per-message character cap): returned unchanged.
 * - The newest call group alone over budget: its results are cut (head + tail around a marker)
 *   behind the INCOMPLETE notice; its tool call stays verbatim. This holds with or without older entries.
 * - Older entries are then fitted into what remains: summarized through the {@link Summarizer}, or,
 *   when it is missing, fails, times out, returns nothing or overshoots, truncated deterministically.
 *   The event says which method ran.
 * - A tool call never loses its result; system and user messages are never accepted (they are never
 *   compressed); the output never exceeds the budget by the compressor's own counter.
 *
 * Throws {@link ScratchpadBudgetError} when the budget cannot hold the newest tool call even with
 * its results reduced to the short notice, and `ScratchpadInputError` for system/user entries.
 */
export class ScratchpadCompressor {
  /** The counter used for every decision; use it to measure budgets and results. */
  readonly counter: TokenCounter;
  private readonly context: CompressionContext;
  private readonly options: ScratchpadCompressorOptions;

  constructor(options: ScratchpadCompressorOptions = {}) {
    this.options = options;
    this.counter = options.counter ?? createTokenCounter({ model: options.model ?? 'gpt-4o' });
    this.context = {
      counter: this.counter,
      language: options.language ?? 'en',
      headShare: options.headShare ?? DEFAULT_HEAD_SHARE,
      maxMessageCharacters: options.maxMessageCharacters ?? DEFAULT_MAX_MESSAGE_CHARACTERS,
      ...(options.store === undefined ? {} : { store: options.store }),
      truncations: new WeakMap(),
      storedIds: new WeakMap(),
    };
    const headShare = this.context.headShare;
    if (!(headShare > 0 && headShare < 1))
      throw new RangeError(`headShare must be between 0 and 1, got ${headShare}`);
  }

  /** Fits the scratchpad into the budget; see the class description. */
  async compress(input: CompressScratchpadInput): Promise<CompressionResult> {
    const started = performance.now();
    const { entries, budgetTokens } = input;
    if (!Number.isSafeInteger(budgetTokens) || budgetTokens < 0) {
      throw new RangeError(`budgetTokens must be a non-negative integer, got ${budgetTokens}`);
    }
    const groups = groupScratchpad(entries);
    const context = this.context;

    let used = 0;
    let fits = true;
    for (const message of entries) {
      if (!fitsAsIs(context, message, budgetTokens - used)) {
        fits = false;
        break;
      }
      used += this.counter.countMessage(message);
    }
    if (fits) {
      return {
        messages: [...entries],
        event: this.event(started, input, {
          method: 'none',
          entriesAfter: entries.length,
          tokensBefore: used,
          tokensBeforeExact: true,
          tokensAfter: used,
          newestTruncated: false,
          olderEntries: groups.length > 1 ? 'kept' : 'none',
          summarizer: { status: 'not-needed' },
          truncatedItems: [],
          removedEntries: [],
        }),
      };
    }

    let tokensBefore = 0;
    let tokensBeforeExact = true;
    for (const message of entries) {
      const count = reportedTokens(context, message, budgetTokens);
      tokensBefore += count.tokens;
      tokensBeforeExact &&= count.exact;
    }

    const newest = groups.at(-1)!;
    const older = groups.slice(0, -1);
    const newestFits = newest.messages.every((message) => fitsAsIs(context, message, budgetTokens));
    const newestTokens = newestFits ? this.counter.countMessages(newest.messages) : Number.POSITIVE_INFINITY;
    let newestMessages = newest.messages;
    let truncatedItems: TruncatedItem[] = [];
    if (newestTokens > budgetTokens) {
      const reserve =
        older.length === 0
          ? 0
          : this.olderReserve(
              older.flatMap((group) => group.messages),
              budgetTokens,
            );
      let fit = await fitGroup(context, newest, budgetTokens - reserve, true);
      // The newest group comes first: give up the reserve for older entries before giving up.
      if (!fit.fitted && reserve > 0) fit = await fitGroup(context, newest, budgetTokens, true);
      if (!fit.fitted) throw new ScratchpadBudgetError(budgetTokens, fit.requiredTokens);
      newestMessages = fit.messages;
      truncatedItems = fit.truncatedItems;
    }
    const newestOutputTokens = this.counter.countMessages(newestMessages);

    let olderMessages: ChatMessage[] = [];
    let summarizer: SummarizerReport = { status: 'not-needed' };
    let olderEntries: CompressionEvent['olderEntries'] = 'none';
    let removedEntries: CompressionEvent['removedEntries'] = [];
    if (older.length > 0) {
      const olderResult = await compressOlderEntries(context, older, budgetTokens - newestOutputTokens, {
        ...(this.options.summarizer === undefined ? {} : { summarizer: this.options.summarizer }),
        timeoutMilliseconds: this.options.summaryTimeoutMs ?? 30_000,
        minimumSummaryTokens: this.options.minimumSummaryTokens ?? 64,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      olderMessages = olderResult.messages;
      summarizer = olderResult.summarizer;
      olderEntries = olderResult.outcome;
      removedEntries = olderResult.removedEntries;
      truncatedItems = [...olderResult.truncatedItems, ...truncatedItems];
    }

    const messages = [...olderMessages, ...newestMessages];
    const tokensAfter = this.counter.countMessages(messages);
    if (tokensAfter > budgetTokens) {
      // Every step checks its own output; reaching this is a bug, and sending it would overflow the context.
      throw new Error(
        `internal error: compressed scratchpad uses ${tokensAfter} tokens, over the budget of ${budgetTokens}`,
      );
    }
    const method: CompressionMethod = olderEntries === 'summarized' ? 'summary' : 'truncation';
    return {
      messages,
      event: this.event(started, input, {
        method,
        entriesAfter: messages.length,
        tokensBefore,
        tokensBeforeExact,
        tokensAfter,
        newestTruncated: newestMessages !== newest.messages,
        olderEntries,
        summarizer,
        truncatedItems,
        removedEntries,
      }),
    };
  }

  /** Budget kept for older entries when the newest group must be cut: their need, capped by the configured share. */
  private olderReserve(messages: readonly ChatMessage[], budgetTokens: number): number {
    const cap = Math.floor(budgetTokens * (this.options.olderEntriesShare ?? 0.2));
    let need = 0;
    for (const message of messages) {
      need += this.counter.countMessageUpTo(message, cap - need).tokens;
      if (need >= cap) return cap;
    }
    return need;
  }

  private event(
    started: number,
    input: CompressScratchpadInput,
    fields: Omit<
      CompressionEvent,
      'type' | 'at' | 'language' | 'budgetTokens' | 'entriesBefore' | 'durationMs'
    >,
  ): CompressionEvent {
    return {
      type: 'scratchpad-compression',
      at: (this.options.now?.() ?? new Date()).toISOString(),
      language: this.context.language,
      budgetTokens: input.budgetTokens,
      entriesBefore: input.entries.length,
      ...fields,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
  }
}
