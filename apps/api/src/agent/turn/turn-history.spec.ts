import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_OVERHEAD_TOKENS } from '@agentdesk/compressor';
import { sqliteTestDatabase, type TestDatabase } from '@agentdesk/storage/testing';
import type { StoredContentPart } from '@agentdesk/api-contract';
import type { Message, NewMessage } from '@agentdesk/storage';
import { storedMessageTokens } from './stored-message-tokens';
import { storedMessagesToChat, transcriptEntryOf } from './stored-messages';
import { loadTurnHistory } from './turn-history';
import { TurnHistoryCache, type CachedHistory } from './turn-history-cache';

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Texts with what tokenizers trip over: special tokens, emoji, long runs. */
const anyText = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('<|endoftext|>', 'a<|im_start|>b', '', '🧪'.repeat(30), 'x'.repeat(300)),
);

const text = (value: string): StoredContentPart => ({ type: 'text', text: value });

/** One stored message of an arbitrary transcript: any order, statuses, orphans and dangling calls. */
const transcriptEntry: fc.Arbitrary<NewMessage> = fc.oneof(
  fc.record({
    role: fc.constant('user' as const),
    contentParts: fc.oneof(
      anyText.map((value) => [text(value)]),
      anyText.map((value) => [text(value), { type: 'image' as const, url: 'https://example.com/a.png' }]),
    ),
  }),
  fc.record({
    role: fc.constant('assistant' as const),
    contentParts: anyText.map((value) => [text(value)]),
    toolCalls: fc.oneof(
      fc.constant(null),
      fc
        .subarray(['call_a', 'call_b', 'call_c'], { minLength: 1 })
        .map((ids) => ids.map((id) => ({ id, name: `tool_${id}`, arguments: '{"x":1}' }))),
    ),
    status: fc.constantFrom('complete' as const, 'complete' as const, 'failed' as const, 'pending' as const),
  }),
  fc.record({
    role: fc.constant('tool' as const),
    toolCallId: fc.constantFrom('call_a', 'call_b', 'call_c', 'call_orphan'),
    contentParts: anyText.map((value) => [text(value)]),
    error: fc.option(fc.constant({ code: 'tool_error' as const, message: 'the tool reported an error' }), {
      nil: null,
    }),
    status: fc.constantFrom('complete' as const, 'complete' as const, 'failed' as const),
  }),
);

/** Written by the API (count stored) or before migration 0009 (no count). */
const storedEntry = fc.record({ entry: transcriptEntry, counted: fc.boolean() });

let database: TestDatabase;
beforeAll(async () => {
  database = await sqliteTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

/** Stores a transcript and the turn's own user message; returns what a turn would see. */
async function storeTranscript(entries: ReadonlyArray<{ entry: NewMessage; counted: boolean }>) {
  const { users, sessions, turnStore } = database.repositories;
  const owner = await users.create({ externalId: `user-${Math.random()}` });
  const session = await sessions.create({ ownerUserId: owner.id });
  for (const { entry, counted } of entries) {
    await turnStore.append(owner.id, session.id, {
      ...entry,
      tokenCount: counted ? storedMessageTokens({ toolCalls: null, toolCallId: null, ...entry }) : null,
    });
  }
  const own = await turnStore.append(owner.id, session.id, { role: 'user', contentParts: [text('now')] });
  return { ownerUserId: owner.id, sessionId: session.id, beforeSeq: own.message.seq };
}

/** `count` alternating questions and answers, with stored counts. */
function questionsAndAnswers(count: number): Array<{ entry: NewMessage; counted: boolean }> {
  return Array.from({ length: count }, (_, index) => ({
    entry: (index % 2 === 0
      ? { role: 'user', contentParts: [text(`question ${index}`)] }
      : { role: 'assistant', contentParts: [text(`answer ${index}`)] }) as NewMessage,
    counted: true,
  }));
}

/** The transcript reads, with the rows of every history read recorded (read by read). */
function countingHistoryReads() {
  const transcript = database.repositories.transcript;
  const reads: number[] = [];
  const counting: typeof transcript = Object.create(transcript) as typeof transcript;
  counting.completeHistoryBefore = async (owner, session, page) => {
    const rows = await transcript.completeHistoryBefore(owner, session, page);
    reads.push(rows.length);
    return rows;
  };
  return { counting, reads };
}

async function everyMessage(ownerUserId: string, sessionId: string): Promise<Message[]> {
  return (await database.repositories.transcript.listMessagesForOwner(ownerUserId, sessionId, { limit: 500 }))
    .items;
}

describe('storedMessageTokens', () => {
  it('property: a text message counts the tokenizer’s tokens of the stored text plus the message overhead', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
        (value, role) => {
          const counted = storedMessageTokens({
            role,
            contentParts: [text(value)],
            toolCalls: null,
            toolCallId: role === 'tool' ? '' : null,
          });
          expect(counted).toBe(MESSAGE_OVERHEAD_TOKENS + countTokens(value, PLAIN_TEXT));
        },
      ),
    );
  });

  it('counts tool calls: their ids, names and arguments cost tokens too', () => {
    const bare = storedMessageTokens({
      role: 'assistant',
      contentParts: [],
      toolCalls: null,
      toolCallId: null,
    });
    const calling = storedMessageTokens({
      role: 'assistant',
      contentParts: [],
      toolCalls: [{ id: 'call_1', name: 'run_command', arguments: '{"command":"ls -la"}' }],
      toolCallId: null,
    });
    expect(calling).toBeGreaterThan(bare + countTokens('{"command":"ls -la"}', PLAIN_TEXT));
  });
});

describe('loadTurnHistory', () => {
  it('property: with room for everything, the history equals what the whole-transcript read built', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(storedEntry, { maxLength: 30 }), async (entries) => {
        const turn = await storeTranscript(entries);
        // The read every turn did before: the whole transcript, then the conversation rebuilt from it.
        const before = storedMessagesToChat(
          (await everyMessage(turn.ownerUserId, turn.sessionId))
            .filter((message) => message.seq < turn.beforeSeq)
            .map(transcriptEntryOf),
        );
        const history = await loadTurnHistory(database.repositories.transcript, {
          ...turn,
          budgetTokens: 10_000_000,
          safetyFactor: 1,
        });
        expect(history).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });

  it('property: within a budget, the newest messages that fit, starting at a user message; counts filled in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(storedEntry, { maxLength: 40 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(1, 1.25),
        async (entries, budgetTokens, safetyFactor) => {
          const turn = await storeTranscript(entries);
          const history = await loadTurnHistory(database.repositories.transcript, {
            ...turn,
            budgetTokens,
            safetyFactor,
          });
          const stored = await everyMessage(turn.ownerUserId, turn.sessionId);
          // Every message read has its count now, and it is the count of its stored content.
          for (const message of stored)
            if (message.tokenCount !== null) expect(message.tokenCount).toBe(storedMessageTokens(message));
          // The oracle: walk the complete messages newest first, stop at the first that does not fit.
          const complete = stored.filter(
            (message) => message.seq < turn.beforeSeq && message.status === 'complete',
          );
          const window: Message[] = [];
          let used = 0;
          for (const message of [...complete].reverse()) {
            const cost = Math.ceil(storedMessageTokens(message) * safetyFactor);
            if (used + cost > budgetTokens) break;
            used += cost;
            window.unshift(message);
          }
          const cut = window.length < complete.length;
          const firstUser = window.findIndex((message) => message.role === 'user');
          const expected = !cut ? window : firstUser < 0 ? [] : window.slice(firstUser);
          expect(history).toEqual(storedMessagesToChat(expected.map(transcriptEntryOf)));
          if (cut) expect(history[0]?.role ?? 'user').toBe('user');
        },
      ),
      { numRuns: 80 },
    );
  });

  it('reads a long session in a few round trips and stops once the budget is spent', async () => {
    const turn = await storeTranscript(questionsAndAnswers(1200));
    const { counting, reads } = countingHistoryReads();
    const history = await loadTurnHistory(counting, { ...turn, budgetTokens: 2_000, safetyFactor: 1 });
    expect(history.length).toBeGreaterThan(100);
    expect(history.length).toBeLessThan(400);
    expect(reads.length).toBeLessThanOrEqual(3);
    expect(reads.reduce((sum, rows) => sum + rows, 0)).toBeLessThan(600);
  });

  it('property: turn after turn, a cached history is exactly what a fresh read gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        // The transcript grows by a few messages per turn, as turns (and other replicas' turns) add them.
        fc.array(fc.array(storedEntry, { maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom(1, 1.25),
        fc.integer({ min: 0, max: 3 }),
        async (turns, budgetTokens, safetyFactor, skippedTurn) => {
          const { users, sessions, turnStore, transcript } = database.repositories;
          const owner = await users.create({ externalId: `user-${Math.random()}` });
          const session = await sessions.create({ ownerUserId: owner.id });
          const cache = new TurnHistoryCache(1_000_000);
          for (const [index, added] of turns.entries()) {
            for (const { entry, counted } of added) {
              await turnStore.append(owner.id, session.id, {
                ...entry,
                tokenCount: counted
                  ? storedMessageTokens({ toolCalls: null, toolCallId: null, ...entry })
                  : null,
              });
            }
            const own = await turnStore.append(owner.id, session.id, {
              role: 'user',
              contentParts: [text('now')],
            });
            // One turn runs on another replica: this process's cache does not see it.
            if (index === skippedTurn) continue;
            const request = { ownerUserId: owner.id, sessionId: session.id, beforeSeq: own.message.seq };
            const cached = await loadTurnHistory(
              transcript,
              { ...request, budgetTokens, safetyFactor },
              cache,
            );
            const fresh = await loadTurnHistory(transcript, { ...request, budgetTokens, safetyFactor });
            expect(cached).toEqual(fresh);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with the cache, a turn reads only what was written since the previous turn', async () => {
    const turn = await storeTranscript(questionsAndAnswers(600));
    const { turnStore, transcript } = database.repositories;
    const { counting, reads } = countingHistoryReads();
    const cache = new TurnHistoryCache(1_000_000);
    const request = { ...turn, budgetTokens: 2_000, safetyFactor: 1 };
    const first = await loadTurnHistory(counting, request, cache);
    expect(reads.reduce((sum, rows) => sum + rows, 0)).toBeGreaterThan(100);

    // The turn's answer, then the next user message: the next turn reads these two rows only.
    await turnStore.append(turn.ownerUserId, turn.sessionId, {
      role: 'assistant',
      contentParts: [text('sure')],
    });
    const next = await turnStore.append(turn.ownerUserId, turn.sessionId, {
      role: 'user',
      contentParts: [text('and?')],
    });
    reads.length = 0;
    const second = await loadTurnHistory(counting, { ...request, beforeSeq: next.message.seq }, cache);
    expect(reads).toEqual([2]);
    expect(second).toEqual(await loadTurnHistory(transcript, { ...request, beforeSeq: next.message.seq }));
    expect(second.at(-1)).toEqual({ role: 'assistant', content: 'sure' });
    expect(second.length).toBeLessThanOrEqual(first.length + 2);

    // Another budget (another model's tokenizer) is not served from the cache.
    reads.length = 0;
    await loadTurnHistory(counting, { ...request, beforeSeq: next.message.seq, safetyFactor: 1.25 }, cache);
    expect(reads.reduce((sum, rows) => sum + rows, 0)).toBeGreaterThan(100);
  });
});

describe('TurnHistoryCache', () => {
  const history = (tokens: number[]): CachedHistory => ({
    throughSeq: tokens.length,
    newestFirst: tokens.map((rawTokens, index) => ({
      message: {
        id: `m${index}`,
        seq: tokens.length - index,
        role: 'user',
        contentParts: [text('x')],
        toolCalls: null,
        toolCallId: null,
        isError: false,
        tokenCount: rawTokens,
      },
      rawTokens,
    })),
    reachedStart: true,
    budgetTokens: 1_000,
    safetyFactor: 1,
  });

  it('freezes what it keeps, so no caller can change another turn’s history', () => {
    const cache = new TurnHistoryCache(1_000);
    cache.set('alice', 'session-1', history([10]));
    const kept = cache.get('alice', 'session-1')!.newestFirst[0]!.message;
    expect(() => ((kept.contentParts[0] as Record<string, unknown>)['text'] = 'changed')).toThrow(TypeError);
    expect(() => (kept.contentParts as StoredContentPart[]).push(text('more'))).toThrow(TypeError);
  });

  it('keys entries by owner and session: another owner never gets a session’s history', () => {
    const cache = new TurnHistoryCache(1_000);
    cache.set('alice', 'session-1', history([10]));
    expect(cache.get('alice', 'session-1')).toBeDefined();
    expect(cache.get('mallory', 'session-1')).toBeUndefined();
  });

  it('property: never holds more tokens than its bound, and drops the least recently used first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 9 }), fc.array(fc.nat(120), { maxLength: 5 }), fc.boolean()),
        ),
        (maxTokens, operations) => {
          const cache = new TurnHistoryCache(maxTokens);
          for (const [session, tokens, read] of operations) {
            if (read) cache.get('owner', `s${session}`);
            else cache.set('owner', `s${session}`, history(tokens));
            expect(cache.tokens).toBeLessThanOrEqual(maxTokens);
            expect(cache.tokens).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
    const cache = new TurnHistoryCache(100);
    cache.set('owner', 'a', history([40]));
    cache.set('owner', 'b', history([40]));
    cache.get('owner', 'a');
    cache.set('owner', 'c', history([40]));
    expect(cache.get('owner', 'b')).toBeUndefined();
    expect(cache.get('owner', 'a')).toBeDefined();
    expect(cache.get('owner', 'c')).toBeDefined();
    // Off: nothing is kept.
    const off = new TurnHistoryCache(0);
    off.set('owner', 'a', history([1]));
    expect(off.get('owner', 'a')).toBeUndefined();
  });
});
