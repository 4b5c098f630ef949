import type { AssistantMessage, ChatMessage, ToolMessage } from '@agentdesk/providers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryToolResultStore } from '../store/tool-result-store';
import type { Summarizer } from '../summarizer/summarizer';
import { fakeSummarizers, pairingProblems } from '../test-support/scratchpad-fixtures';
import { createTokenCounter } from '../tokens/count-tokens';
import { hasTruncationNotice } from '../truncation/truncation-notice';
import { ScratchpadBudgetError } from './scratchpad-budget-error';
import { ScratchpadCompressor } from './scratchpad-compressor';

const counter = createTokenCounter({ model: 'gpt-4o' });

/** Tool output of every shape the properties must survive. */
const resultText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom(
        '😀',
        '🇫🇷',
        '界',
        'é',
        '\ud800',
        '\udfff',
        '<|endoftext|>',
        '<|im_start|>',
        ' ',
        '\n',
        'x',
      ),
      maxLength: 400,
    }),
  },
  {
    weight: 2,
    // A huge single result: a piece repeated up to ~100k characters.
    arbitrary: fc
      .tuple(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 200, max: 4000 }),
      )
      .map(([piece, times]) => piece.repeat(times)),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 10, max: 3000 })
      .map((count) =>
        Array.from({ length: count }, (_, index) => `line ${index} 😀 value=${index * 3}`).join('\n'),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 400 })
      .map((items) => JSON.stringify(items)),
  },
);

interface GroupShape {
  results: string[];
  assistantText: string;
  toolArguments: string;
}

const groupShape: fc.Arbitrary<GroupShape> = fc.record({
  results: fc.array(resultText, { minLength: 1, maxLength: 3 }),
  assistantText: fc.oneof(fc.constant(''), fc.string({ maxLength: 40 })),
  toolArguments: fc.oneof(fc.constant('{}'), fc.json({ maxDepth: 1 })),
});

/** Builds a well-paired scratchpad from group shapes, with unique call ids. */
function scratchpadOf(shapes: readonly GroupShape[]): ChatMessage[] {
  return shapes.flatMap((shape, groupIndex) => {
    const calls = shape.results.map((_, resultIndex) => ({
      id: `call_${groupIndex}_${resultIndex}`,
      name: `tool${resultIndex}`,
      arguments: shape.toolArguments,
    }));
    const assistant: AssistantMessage = { role: 'assistant', content: shape.assistantText, toolCalls: calls };
    const results: ToolMessage[] = shape.results.map((content, resultIndex) => ({
      role: 'tool',
      toolCallId: calls[resultIndex]!.id,
      toolName: calls[resultIndex]!.name,
      content,
    }));
    return [assistant, ...results];
  });
}

const summarizerChoice = fc.constantFrom<[string, () => Summarizer | undefined]>(
  ['none', () => undefined],
  [
    'succeeds',
    () => fakeSummarizers.returning('Earlier calls returned partial data; see the stored results.'),
  ],
  ['fails', () => fakeSummarizers.failing()],
  ['overshoots', () => fakeSummarizers.overshooting()],
  ['empty', () => fakeSummarizers.empty()],
  ['hangs', () => fakeSummarizers.hanging()],
);

const scenario = fc.record({
  shapes: fc.array(groupShape, { minLength: 1, maxLength: 5 }),
  budget: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 400, max: 6000 })),
  summarizer: summarizerChoice,
  language: fc.constantFrom<'en' | 'fr'>('en', 'fr'),
  withStore: fc.boolean(),
});

// FC_RUNS raises the run count for a deeper local search; the default keeps the suite fast on 2 cores.
const RUNS = { numRuns: Number(process.env['FC_RUNS'] ?? 120) };

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function run(input: Scenario) {
  const entries = scratchpadOf(input.shapes);
  const summarizer = input.summarizer[1]();
  const compressor = new ScratchpadCompressor({
    counter,
    language: input.language,
    summaryTimeoutMs: 20,
    ...(summarizer === undefined ? {} : { summarizer }),
    ...(input.withStore ? { store: new InMemoryToolResultStore() } : {}),
  });
  try {
    return { entries, outcome: await compressor.compress({ entries, budgetTokens: input.budget }) };
  } catch (error) {
    if (error instanceof ScratchpadBudgetError) {
      // The only permitted failure: the budget cannot hold the newest call in its smallest form.
      expect(error.requiredTokens).toBeGreaterThan(input.budget);
      return { entries, outcome: undefined };
    }
    throw error;
  }
}

function newestGroup(entries: readonly ChatMessage[]): ChatMessage[] {
  const lastCall = entries.findLastIndex((message) => message.role === 'assistant');
  return entries.slice(lastCall);
}

describe('ScratchpadCompressor properties over arbitrary scratchpads', () => {
  it('never exceeds the budget, by the counter it uses', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { outcome } = await run(input);
        if (outcome === undefined) return;
        expect(counter.countMessages(outcome.messages)).toBeLessThanOrEqual(input.budget);
        expect(outcome.event.tokensAfter).toBe(counter.countMessages(outcome.messages));
        expect(outcome.event.entriesAfter).toBe(outcome.messages.length);
      }),
      RUNS,
    );
  });

  it('keeps every tool call paired with its result', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { entries, outcome } = await run(input);
        expect(pairingProblems(entries)).toEqual([]);
        if (outcome === undefined) return;
        expect(pairingProblems(outcome.messages)).toEqual([]);
      }),
      RUNS,
    );
  });

  it('keeps the newest tool call verbatim, with all its results, whatever the summarizer does', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { entries, outcome } = await run(input);
        if (outcome === undefined) return;
        const newest = newestGroup(entries);
        const output = outcome.messages.slice(-newest.length);
        expect(output[0]).toBe(newest[0]);
        expect(
          output.map((message) => (message.role === 'tool' ? message.toolCallId : message.role)),
        ).toEqual(newest.map((message) => (message.role === 'tool' ? message.toolCallId : message.role)));
      }),
      RUNS,
    );
  });

  it('puts the notice on a result if and only if it was truncated', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { entries, outcome } = await run(input);
        if (outcome === undefined) return;
        const originals = new Map(
          entries
            .filter((message): message is ToolMessage => message.role === 'tool')
            .map((message) => [message.toolCallId, message]),
        );
        const truncatedIds = new Set(outcome.event.truncatedItems.map((item) => item.toolCallId));
        for (const message of outcome.messages) {
          if (message.role !== 'tool') continue;
          const original = originals.get(message.toolCallId)!;
          const changed = message !== original;
          expect(hasTruncationNotice(typeof message.content === 'string' ? message.content : '')).toBe(
            changed,
          );
          expect(truncatedIds.has(message.toolCallId)).toBe(changed);
        }
        expect(outcome.event.method === 'none').toBe(
          outcome.messages.every((message, index) => message === entries[index]) &&
            outcome.messages.length === entries.length,
        );
      }),
      RUNS,
    );
  });

  it('returns a scratchpad within budget unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const entries = scratchpadOf(input.shapes);
        const budget = counter.countMessages(entries) + (input.budget % 50);
        const { outcome } = await run({ ...input, budget });
        expect(outcome?.event.method).toBe('none');
        expect(outcome?.messages).toEqual(entries);
      }),
      { numRuns: 60 },
    );
  });

  it('produces a JSON-serializable event that names the method', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        const { outcome } = await run(input);
        if (outcome === undefined) return;
        expect(JSON.parse(JSON.stringify(outcome.event))).toEqual(outcome.event);
        expect(['none', 'truncation', 'summary']).toContain(outcome.event.method);
        if (outcome.event.method === 'summary') expect(input.summarizer[0]).toBe('succeeds');
      }),
      { numRuns: 60 },
    );
  });
});
