import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { ChatMessage } from '@agentdesk/providers';
import { flattenContent } from '../messages/flatten-content';
import { BoundedTextCache } from './bounded-cache';
import { tokenizerForModel, type TokenEncodingName } from './encoding-for-model';
import { nextChunkEnd, previousChunkStart, splitsSurrogatePair } from './text-chunks';

/** A token count, exact or stopped early. */
export interface TokenCount {
  tokens: number;
  /** False when counting stopped past a limit: `tokens` is then a lower bound above that limit. */
  exact: boolean;
}

/**
 * Counts tokens the way every budget decision in this library is made. Compressing and checking
 * the result with the same counter is what makes "never over budget" a guarantee.
 */
export interface TokenCounter {
  readonly encoding: TokenEncodingName;
  /** Multiplier over the raw gpt-tokenizer count (1 for OpenAI models). */
  readonly safetyFactor: number;
  /** Tokens in a text. Cost is linear in the text; results are memoized per text. */
  countText(text: string): number;
  /**
   * Tokens in a text, stopping once the count passes `limit`: the cost is bounded by the limit,
   * not by the text (a 100 MB text over an 8k limit is answered without tokenizing it).
   */
  countTextUpTo(text: string, limit: number): TokenCount;
  /** A quick estimate for reporting only: exact for short texts, extrapolated from samples otherwise. */
  estimateText(text: string): TokenCount;
  /** Tokens one message costs in a request: content, tool calls, ids and a per-message overhead. Memoized per message. */
  countMessage(message: ChatMessage): number;
  /** {@link countMessage} with the early stop of {@link countTextUpTo}. */
  countMessageUpTo(message: ChatMessage, limit: number): TokenCount;
  /** Sum of {@link countMessage}. */
  countMessages(messages: readonly ChatMessage[]): number;
  /** Length of the longest prefix of `text` that costs at most `limit` tokens. Never splits a surrogate pair. */
  longestPrefixWithin(text: string, limit: number): number;
  /** Start of the longest suffix of `text` that costs at most about `limit` tokens (callers verify). */
  longestSuffixWithin(text: string, limit: number): number;
}

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Picks the encoding and safety factor with {@link tokenizerForModel}. Default `gpt-4o`. */
  model?: string;
  /** Overrides the encoding picked from the model. */
  encoding?: TokenEncodingName;
  /** Overrides the safety factor picked from the model. Must be ≥ 1. */
  safetyFactor?: number;
  /** Texts remembered by the count cache. Default 4096. */
  cacheMaxEntries?: number;
  /** Total characters of the texts the count cache may keep alive. Default 32 million. */
  cacheMaxChars?: number;
}

/**
 * Tokens every message costs besides its content (role and separators in the chat format).
 * OpenAI documents 3–4; 4 is the safe side.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens each tool call adds besides its name, arguments and id. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/** Fixed estimate for an image part (only user messages carry images; they are never compressed). */
export const IMAGE_PART_TOKENS = 1000;
/** No token of o200k or cl100k decodes to more than 128 bytes, hence to more than 128 UTF-16 units (checked by a test). */
export const MAX_CHARS_PER_TOKEN = 128;

// Special tokens such as <|endoftext|> are counted as the plain text they are: gpt-tokenizer throws
// on them by default, and tool output or user text must never crash counting.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const RAW_COUNTERS: Record<TokenEncodingName, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, PLAIN_TEXT),
  cl100k_base: (text) => countCl100k(text, PLAIN_TEXT),
};
const ESTIMATE_SAMPLE_CHARS = 8192;

interface MessageMemo {
  content: unknown;
  toolCalls: unknown;
  count: TokenCount;
}

/** Creates the gpt-tokenizer based {@link TokenCounter} for a model family. */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const choice = tokenizerForModel(options.model ?? 'gpt-4o');
  const encoding = options.encoding ?? choice.encoding;
  const safetyFactor = options.safetyFactor ?? choice.safetyFactor;
  if (!(safetyFactor >= 1) || !Number.isFinite(safetyFactor)) {
    throw new RangeError(`safetyFactor must be a finite number ≥ 1, got ${safetyFactor}`);
  }
  return new ChunkedTokenCounter(
    encoding,
    safetyFactor,
    new BoundedTextCache<TokenCount>(options.cacheMaxEntries ?? 4096, options.cacheMaxChars ?? 32_000_000),
  );
}

class ChunkedTokenCounter implements TokenCounter {
  private readonly rawCount: (text: string) => number;
  private readonly messageMemo = new WeakMap<ChatMessage, MessageMemo>();

  constructor(
    readonly encoding: TokenEncodingName,
    readonly safetyFactor: number,
    private readonly textCache: BoundedTextCache<TokenCount>,
  ) {
    this.rawCount = RAW_COUNTERS[encoding];
  }

  countText(text: string): number {
    return this.countTextUpTo(text, Number.POSITIVE_INFINITY).tokens;
  }

  countTextUpTo(text: string, limit: number): TokenCount {
    if (text.length === 0) return { tokens: 0, exact: true };
    const cached = this.textCache.get(text);
    if (cached !== undefined && (cached.exact || cached.tokens > limit)) return cached;
    // Every token covers at most MAX_CHARS_PER_TOKEN characters: a long text is over the limit
    // without being tokenized at all.
    const lowerBound = this.scale(Math.ceil(text.length / MAX_CHARS_PER_TOKEN));
    if (lowerBound > limit) return this.remember(text, { tokens: lowerBound, exact: false });
    const rawLimit = limit / this.safetyFactor;
    let raw = 0;
    for (let start = 0; start < text.length;) {
      const end = nextChunkEnd(text, start);
      raw += this.rawCount(start === 0 && end === text.length ? text : text.slice(start, end));
      start = end;
      if (raw > rawLimit && start < text.length)
        return this.remember(text, { tokens: this.scale(raw), exact: false });
    }
    return this.remember(text, { tokens: this.scale(raw), exact: true });
  }

  estimateText(text: string): TokenCount {
    if (text.length <= 4 * ESTIMATE_SAMPLE_CHARS) return this.countTextUpTo(text, Number.POSITIVE_INFINITY);
    const cached = this.textCache.get(text);
    if (cached?.exact === true) return cached;
    const head = text.slice(0, ESTIMATE_SAMPLE_CHARS);
    const tail = text.slice(text.length - ESTIMATE_SAMPLE_CHARS);
    const sampled = this.countText(head) + this.countText(tail);
    const estimate = Math.round((sampled * text.length) / (2 * ESTIMATE_SAMPLE_CHARS));
    return { tokens: Math.max(estimate, cached?.tokens ?? 0), exact: false };
  }

  countMessage(message: ChatMessage): number {
    return this.countMessageUpTo(message, Number.POSITIVE_INFINITY).tokens;
  }

  countMessageUpTo(message: ChatMessage, limit: number): TokenCount {
    const toolCalls = message.role === 'assistant' ? message.toolCalls : undefined;
    const memo = this.messageMemo.get(message);
    // The memo is checked against the content and tool calls it was computed for, so a message
    // object mutated in place is recounted rather than trusted.
    if (memo !== undefined && memo.content === message.content && memo.toolCalls === toolCalls) {
      if (memo.count.exact || memo.count.tokens > limit) return memo.count;
    }
    const count = this.computeMessage(message, limit);
    this.messageMemo.set(message, { content: message.content, toolCalls, count });
    return count;
  }

  countMessages(messages: readonly ChatMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }

  longestPrefixWithin(text: string, limit: number): number {
    const rawLimit = Math.floor(limit / this.safetyFactor + 1e-9);
    if (rawLimit <= 0) return 0;
    let used = 0;
    for (let start = 0; start < text.length;) {
      const end = nextChunkEnd(text, start);
      const chunkTokens = this.rawCount(text.slice(start, end));
      if (used + chunkTokens <= rawLimit) {
        used += chunkTokens;
        start = end;
        continue;
      }
      // The chunk crosses the limit: binary search the cut inside it (a chunk is at most 1 KiB).
      const remaining = rawLimit - used;
      let low = start;
      let high = end - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (this.rawCount(text.slice(start, middle)) <= remaining) low = middle;
        else high = middle - 1;
      }
      return splitsSurrogatePair(text, low) ? low - 1 : low;
    }
    return text.length;
  }

  longestSuffixWithin(text: string, limit: number): number {
    const rawLimit = Math.floor(limit / this.safetyFactor + 1e-9);
    if (rawLimit <= 0) return text.length;
    let used = 0;
    for (let end = text.length; end > 0;) {
      const start = previousChunkStart(text, end);
      const chunkTokens = this.rawCount(text.slice(start, end));
      if (used + chunkTokens <= rawLimit) {
        used += chunkTokens;
        end = start;
        continue;
      }
      const remaining = rawLimit - used;
      let low = start + 1;
      let high = end;
      while (low < high) {
        const middle = Math.floor((low + high) / 2);
        if (this.rawCount(text.slice(middle, end)) <= remaining) high = middle;
        else low = middle + 1;
      }
      return splitsSurrogatePair(text, low) ? low + 1 : low;
    }
    return 0;
  }

  private computeMessage(message: ChatMessage, limit: number): TokenCount {
    let fixed = MESSAGE_OVERHEAD_TOKENS;
    let text: string;
    switch (message.role) {
      case 'tool':
        fixed += this.countText(message.toolCallId) + this.countText(message.toolName);
        text = flattenContent(message.content);
        break;
      case 'assistant':
        for (const call of message.toolCalls ?? []) {
          fixed += TOOL_CALL_OVERHEAD_TOKENS + this.countText(call.id) + this.countText(call.name);
          fixed += this.countText(call.arguments);
        }
        text = flattenContent(message.content);
        break;
      case 'user': {
        if (typeof message.content === 'string') {
          text = message.content;
          break;
        }
        const texts = message.content.flatMap((part) => (part.type === 'text' ? [part] : []));
        fixed += (message.content.length - texts.length) * IMAGE_PART_TOKENS;
        text = flattenContent(texts);
        break;
      }
      case 'system':
        text = message.content;
        break;
    }
    const content = this.countTextUpTo(text, limit - fixed);
    return { tokens: fixed + content.tokens, exact: content.exact };
  }

  private scale(raw: number): number {
    return this.safetyFactor === 1 ? raw : Math.ceil(raw * this.safetyFactor - 1e-9);
  }

  private remember(text: string, count: TokenCount): TokenCount {
    this.textCache.set(text, count);
    return count;
  }
}
