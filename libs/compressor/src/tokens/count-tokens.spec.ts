import fc from 'fast-check';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import o200kRanks from 'gpt-tokenizer/esm/bpeRanks/o200k_base';
import cl100kRanks from 'gpt-tokenizer/esm/bpeRanks/cl100k_base';
import type { ChatMessage } from '@agentdesk/providers';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenCounter, MAX_CHARS_PER_TOKEN, MESSAGE_OVERHEAD_TOKENS } from './count-tokens';
import { CHUNK_MAX_CHARS, splitsSurrogatePair } from './text-chunks';

/**
 * The characters handed to the o200k tokenizer: what "without tokenizing it" and "memoized" mean,
 * asserted as work done rather than as time taken (the benchmark, bench/compressor.ts, holds the
 * speed targets).
 */
const tokenized = vi.hoisted(() => ({ characters: 0 }));
vi.mock('gpt-tokenizer/encoding/o200k_base', async (importOriginal) => {
  const actual = await importOriginal<typeof O200k>();
  return {
    ...actual,
    countTokens: (...args: Parameters<typeof actual.countTokens>) => {
      if (typeof args[0] === 'string') tokenized.characters += args[0].length;
      return actual.countTokens(...args);
    },
  };
});
beforeEach(() => {
  tokenized.characters = 0;
});

const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|fim_prefix|>', '<|endofprompt|>'];

describe('createTokenCounter', () => {
  it('counts special tokens as the plain text they are, never throwing', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const text = `before ${SPECIAL_TOKENS.join(' ')} after`;
    expect(() => encodeO200k(text)).toThrow(/special token/i);
    expect(counter.countText(text)).toBe(encodeO200k(text, { disallowedSpecial: new Set() }).length);
    expect(counter.countText('<|endoftext|>')).toBeGreaterThan(1);
    const cl100k = createTokenCounter({ model: 'gpt-4' });
    expect(cl100k.encoding).toBe('cl100k_base');
    expect(cl100k.countText(text)).toBeGreaterThan(SPECIAL_TOKENS.length);
  });

  it('matches gpt-tokenizer on ordinary text of a single chunk', () => {
    const counter = createTokenCounter();
    const text = 'The quick brown fox jumps over the lazy dog. 1234567 — ça marche, 日本語も 😀.';
    expect(counter.countText(text)).toBe(encodeO200k(text).length);
  });

  it('bounds MAX_CHARS_PER_TOKEN by the longest token of both vocabularies', () => {
    for (const ranks of [o200kRanks, cl100kRanks] as (string | number[])[][]) {
      let longest = 0;
      for (const token of ranks)
        longest = Math.max(longest, typeof token === 'string' ? Buffer.byteLength(token) : token.length);
      expect(longest).toBeLessThanOrEqual(MAX_CHARS_PER_TOKEN);
    }
  });

  it('answers over-the-limit for a 20 MB text without tokenizing it', () => {
    const counter = createTokenCounter();
    const huge = 'select * from orders where id = 42;\n'.repeat(600_000);
    const count = counter.countTextUpTo(huge, 8000);
    expect(tokenized.characters).toBe(0);
    expect(count).toEqual({ tokens: Math.ceil(huge.length / MAX_CHARS_PER_TOKEN), exact: false });
    expect(count.tokens).toBeGreaterThan(8000);
  });

  it('stops counting early once past the limit, and is exact below it', () => {
    const counter = createTokenCounter();
    const text = 'alpha beta gamma delta '.repeat(2000);
    const full = counter.countText(text);
    const stopped = createTokenCounter().countTextUpTo(text, 100);
    expect(stopped.exact).toBe(false);
    expect(stopped.tokens).toBeGreaterThan(100);
    expect(stopped.tokens).toBeLessThan(full);
    expect(createTokenCounter().countTextUpTo(text, full)).toEqual({ tokens: full, exact: true });
  });

  it('scales counts by the safety factor for approximated models', () => {
    const exact = createTokenCounter({ model: 'gpt-4o' });
    const claude = createTokenCounter({ model: 'claude-sonnet-4-5' });
    const text = 'Summarize the quarterly revenue table for the board meeting.';
    expect(claude.countText(text)).toBe(Math.ceil(exact.countText(text) * claude.safetyFactor));
    expect(() => createTokenCounter({ safetyFactor: 0.5 })).toThrow(RangeError);
  });

  it('counts a message as content, tool calls, ids and a fixed overhead', () => {
    const counter = createTokenCounter();
    const call: ChatMessage = {
      role: 'assistant',
      content: 'Looking it up.',
      toolCalls: [{ id: 'call_1', name: 'sql', arguments: '{"q":"select 1"}' }],
    };
    const bare: ChatMessage = { role: 'assistant', content: 'Looking it up.' };
    expect(counter.countMessage(bare)).toBe(MESSAGE_OVERHEAD_TOKENS + counter.countText('Looking it up.'));
    expect(counter.countMessage(call)).toBeGreaterThan(
      counter.countMessage(bare) + counter.countText('{"q":"select 1"}'),
    );
    const blocks: ChatMessage = {
      role: 'tool',
      toolCallId: 'c',
      toolName: 't',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    const flat: ChatMessage = { role: 'tool', toolCallId: 'c', toolName: 't', content: 'a\nb' };
    expect(counter.countMessage(blocks)).toBe(counter.countMessage(flat));
  });

  it('memoizes per message and recounts a message whose content was replaced', () => {
    // A text cache too small for the content: only the per-message memo can spare the recount.
    const counter = createTokenCounter({ cacheMaxChars: 1000 });
    const lines = Array.from({ length: 40_000 }, (_, index) => `event=login user=${index} status=ok`).join(
      '\n',
    );
    const message: ChatMessage = { role: 'tool', toolCallId: 'c1', toolName: 'logs', content: lines };
    const tokens = counter.countMessage(message);
    expect(tokenized.characters).toBeGreaterThanOrEqual(lines.length);
    tokenized.characters = 0;
    expect(counter.countMessage(message)).toBe(tokens);
    expect(tokenized.characters).toBe(0);
    message.content = 'short now';
    expect(counter.countMessage(message)).toBe(counter.countMessage({ ...message }));
    expect(counter.countMessage(message)).toBeLessThan(tokens);
  });

  it('keeps the text cache within its bounds', () => {
    const counter = createTokenCounter({ cacheMaxEntries: 2, cacheMaxChars: 1000 });
    for (let index = 0; index < 10; index++) counter.countText(`text number ${index}`);
    // Not observable through the interface beyond correctness: counts stay right after evictions.
    expect(counter.countText('text number 0')).toBe(encodeO200k('text number 0').length);
    expect(counter.countText('y '.repeat(900))).toBe(encodeO200k('y '.repeat(900)).length);
  });

  describe('longestPrefixWithin / longestSuffixWithin', () => {
    const counter = createTokenCounter();
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 3000 }),
      fc.string({
        unit: fc.constantFrom('a', 'bc ', '\n', '😀', '界', '<|endoftext|>', '\ud800'),
        maxLength: 3000,
      }),
      fc
        .tuple(fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 200 }))
        .map(([piece, times]) => piece.repeat(times)),
    );

    it('return the longest prefix within the limit, by the same count', () => {
      fc.assert(
        fc.property(texts, fc.integer({ min: 0, max: 800 }), (text, limit) => {
          const end = counter.longestPrefixWithin(text, limit);
          expect(splitsSurrogatePair(text, end)).toBe(false);
          expect(counter.countText(text.slice(0, end))).toBeLessThanOrEqual(limit);
          if (counter.countText(text) <= limit) expect(end).toBe(text.length);
        }),
      );
    });

    it('return a suffix close to the limit without splitting surrogate pairs', () => {
      fc.assert(
        fc.property(texts, fc.integer({ min: 0, max: 800 }), (text, limit) => {
          const start = counter.longestSuffixWithin(text, limit);
          expect(splitsSurrogatePair(text, start)).toBe(false);
          // Chunks met from the end may merge differently when counted from the start: allow a few tokens.
          expect(counter.countText(text.slice(start))).toBeLessThanOrEqual(limit + 8);
          if (counter.countText(text) <= limit) expect(start).toBe(0);
        }),
      );
    });

    it('tokenize only about the limit’s worth of a huge text', () => {
      const huge = 'status=ok latency=12ms path=/v1/items\n'.repeat(300_000);
      // Each search tokenizes what it keeps once, plus a binary search inside the one chunk that
      // crosses the limit (at most about log2(CHUNK_MAX_CHARS) slices of a chunk).
      const searchSlack = 12 * CHUNK_MAX_CHARS;
      const end = counter.longestPrefixWithin(huge, 4000);
      expect(tokenized.characters).toBeLessThan(end + searchSlack);
      tokenized.characters = 0;
      const start = counter.longestSuffixWithin(huge, 4000);
      expect(tokenized.characters).toBeLessThan(huge.length - start + searchSlack);
      expect(end).toBeGreaterThan(4000);
      expect(end).toBeLessThan(4000 * MAX_CHARS_PER_TOKEN);
      expect(huge.length - start).toBeGreaterThan(4000);
    });
  });
});
