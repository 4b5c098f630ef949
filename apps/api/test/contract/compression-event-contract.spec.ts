import { compressionEventJsonSchema, type CompressionEventJson } from '@agentdesk/api-contract';
import type { CompressionEvent } from '@agentdesk/compressor';
import { describe, expect, it } from 'vitest';

// The console reads compression events through @agentdesk/api-contract; the compressor writes them.
// These checks fail (typecheck or test) when the two drift apart.

/** An interface as a plain object type (interfaces lack the index signature of a loose zod object). */
type Plain<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Plain<T[K]> }
  : T extends object
    ? { [K in keyof T]: Plain<T[K]> }
    : T;

// Compile-time: every event the compressor can write has the shape the console reads.
export const compressorEventsFitTheContract = (event: Plain<CompressionEvent>): CompressionEventJson => event;

const truncationEvent: CompressionEvent = {
  type: 'scratchpad-compression',
  at: '2026-01-31T12:00:00.000Z',
  method: 'truncation',
  language: 'en',
  budgetTokens: 8000,
  entriesBefore: 3,
  entriesAfter: 3,
  tokensBefore: 41_000,
  tokensBeforeExact: false,
  tokensAfter: 7_900,
  newestTruncated: true,
  olderEntries: 'kept',
  summarizer: { status: 'not-needed' },
  truncatedItems: [
    {
      toolCallId: 'call_1',
      toolName: 'run_command',
      storedResultId: '0190a0c0-0000-7000-8000-000000000001',
      newest: true,
      strategy: 'text',
      originalCharacters: 160_000,
      keptCharacters: 31_000,
      omittedCharacters: 129_000,
      tokensBefore: 40_000,
      tokensBeforeExact: false,
      tokensAfter: 7_800,
    },
  ],
  removedEntries: [],
  durationMs: 4,
};

describe('compression events in the API contract', () => {
  it('accept what the compressor records', () => {
    expect(compressionEventJsonSchema.parse(truncationEvent)).toEqual(truncationEvent);
  });

  it('refuse an event without its token counts', () => {
    const { tokensAfter: _dropped, ...withoutTokensAfter } = truncationEvent;
    expect(compressionEventJsonSchema.safeParse(withoutTokensAfter).success).toBe(false);
  });
});
