import type { MessageJson } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { checkMessage } from './server/check-message';
import { buildTurns as buildTurnsOfChecked, transcriptTotals } from './transcript-model';

/** The transcript as the browser gets it: each message checked on the server first. */
const buildTurns = (messages: readonly MessageJson[]) => buildTurnsOfChecked(messages.map(checkMessage));

let seq = 0;
function message(fields: Partial<MessageJson> & Pick<MessageJson, 'role'>): MessageJson {
  seq += 1;
  return {
    id: `m-${seq}`,
    sessionId: 's-1',
    seq,
    contentParts: [],
    toolCalls: null,
    toolCallId: null,
    usage: null,
    status: 'complete',
    error: null,
    model: null,
    compressionEvents: null,
    startedAt: '2026-01-31T12:00:00.000Z',
    finishedAt: '2026-01-31T12:00:01.000Z',
    createdAt: '2026-01-31T12:00:00.000Z',
    ...fields,
  };
}
const text = (value: string) => [{ type: 'text', text: value }];
const usage = (input: number, output: number) => ({ input, output, thinking: 0, cached: 0 });

const compressionEvent = {
  type: 'scratchpad-compression',
  at: '2026-01-31T12:00:00.500Z',
  method: 'truncation',
  language: 'en',
  budgetTokens: 8000,
  entriesBefore: 2,
  entriesAfter: 2,
  tokensBefore: 40000,
  tokensBeforeExact: false,
  tokensAfter: 7900,
  newestTruncated: true,
  olderEntries: 'none',
  summarizer: { status: 'not-needed' },
  truncatedItems: [],
  removedEntries: [],
  durationMs: 3,
};

describe('a transcript read as turns', () => {
  it('shows each tool result inside the card of the call it answers, not again on its own', () => {
    const question = message({ role: 'user', contentParts: text('Read the report') });
    const call = message({
      role: 'assistant',
      toolCalls: [{ id: 'call_1', name: 'read_tool_result', arguments: '{"id":"r1"}' }],
      usage: usage(100, 10),
    });
    const result = message({ role: 'tool', toolCallId: 'call_1', contentParts: text('the report') });
    const answer = message({ role: 'assistant', contentParts: text('Here it is'), usage: usage(150, 5) });

    const [turn] = buildTurns([answer, result, call, question]);
    expect(turn?.number).toBe(1);
    expect(turn?.messages.map((entry) => entry.message.id)).toEqual([question.id, call.id, answer.id]);
    expect(turn?.messages[1]?.toolExchanges).toEqual([
      {
        call: { id: 'call_1', name: 'read_tool_result', arguments: '{"id":"r1"}' },
        result,
        resultText: 'the report',
        resultIsError: false,
      },
    ]);
    expect(turn?.usage).toEqual(usage(250, 15));
    expect(turn?.modelCalls).toBe(2);
    expect(turn?.durationMs).toBe(1000);
  });

  it('keeps a tool message whose call is unknown, and marks a call without result', () => {
    const question = message({ role: 'user', contentParts: text('go') });
    const call = message({
      role: 'assistant',
      toolCalls: [{ id: 'call_9', name: 'run_command', arguments: 'not json' }],
    });
    const orphan = message({ role: 'tool', toolCallId: 'call_other', contentParts: text('stray') });
    const [turn] = buildTurns([question, call, orphan]);
    expect(turn?.messages.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(turn?.messages[1]?.toolExchanges[0]).toMatchObject({ result: undefined, resultText: undefined });
  });

  it('starts a turn at each user message and marks failed and running turns', () => {
    const turns = buildTurns([
      message({ role: 'system', contentParts: text('be brief') }),
      message({ role: 'user', contentParts: text('one') }),
      message({
        role: 'assistant',
        status: 'failed',
        error: { code: 'server_error', message: 'model exploded', provider: 'openai', status: 500 },
      }),
      message({ role: 'user', contentParts: text('two') }),
      message({ role: 'assistant', status: 'pending', finishedAt: null }),
    ]);
    expect(turns.map((turn) => [turn.number, turn.failed, turn.running])).toEqual([
      [0, false, false],
      [1, true, false],
      [2, false, true],
    ]);
    expect(turns[1]?.messages[1]?.error).toEqual({
      code: 'server_error',
      message: 'model exploded',
      provider: 'openai',
      status: 500,
    });
    expect(turns[2]?.durationMs).toBeUndefined();
    expect(transcriptTotals(turns)).toMatchObject({ turns: 2, failedTurns: 1, modelCalls: 2 });
  });

  it('reads compression events and keeps what it cannot read as raw JSON', () => {
    const odd = { type: 'future-event' };
    const [turn] = buildTurns([
      message({ role: 'user', contentParts: [...text('hi'), { type: 'image', url: 'x' }] }),
      message({ role: 'assistant', compressionEvents: [compressionEvent, odd], toolCalls: [{ id: 7 }] }),
    ]);
    expect(turn?.messages[0]?.otherParts).toEqual([{ type: 'image', url: 'x' }]);
    expect(turn?.messages[1]?.compressionEvents).toEqual([compressionEvent]);
    expect(turn?.messages[1]?.unreadableCompressionEvents).toEqual([odd]);
    expect(turn?.messages[1]?.unreadableToolCalls).toEqual([{ id: 7 }]);
    expect(transcriptTotals(turn === undefined ? [] : [turn])).toMatchObject({
      compressions: 2,
      toolCalls: 1,
    });
  });

  it('marks a tool result that reported an error', () => {
    const [turn] = buildTurns([
      message({ role: 'user', contentParts: text('go') }),
      message({ role: 'assistant', toolCalls: [{ id: 'c', name: 't', arguments: '{}' }] }),
      message({
        role: 'tool',
        toolCallId: 'c',
        error: { code: 'tool_error', message: 'The tool reported an error' },
      }),
    ]);
    expect(turn?.messages[1]?.toolExchanges[0]?.resultIsError).toBe(true);
    expect(turn?.failed).toBe(false);
  });
});
