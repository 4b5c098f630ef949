import type { LiveFeedEvent, MessageJson } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent, emptyLiveTurn, withLiveTurn, type LiveTurnView } from './live-feed-model';
import { buildTurns, type CheckedMessage } from './transcript-model';

const at = '2026-01-31T12:00:00.000Z';
function checked(
  fields: Partial<MessageJson> & Pick<MessageJson, 'id' | 'seq' | 'role'>,
  textParts: number[] = [],
): CheckedMessage {
  return {
    message: {
      sessionId: 's',
      contentParts: [],
      toolCalls: null,
      toolCallId: null,
      usage: null,
      status: 'complete',
      error: null,
      model: null,
      compressionEvents: null,
      startedAt: at,
      finishedAt: at,
      createdAt: at,
      ...fields,
    },
    reading: { textParts, toolCalls: [], compressionEvents: [], errorReadable: false },
  };
}
const play = (events: LiveFeedEvent[]): LiveTurnView => events.reduce(applyLiveEvent, emptyLiveTurn);

const user = checked({ id: 'u1', seq: 1, role: 'user', contentParts: [{ type: 'text', text: 'why?' }] }, [0]);
const pending = checked({ id: 'a1', seq: 2, role: 'assistant', status: 'pending', finishedAt: null });

describe('the live view of a running turn', () => {
  it('grows the pending answer’s text as deltas arrive, starting from what the snapshot says was missed', () => {
    const view = play([
      {
        type: 'snapshot',
        sessionId: 's',
        afterSeq: 2,
        turnId: 't1',
        partialAnswers: [{ messageId: 'a1', text: 'Look' }],
      },
      { type: 'text-delta', messageId: 'a1', text: 'ing ' },
      { type: 'text-delta', messageId: 'a1', text: 'now' },
    ]);
    expect(view.running).toBe(true);
    const [, answer] = buildTurns(withLiveTurn([user, pending], view, 's'))[0]!.messages;
    expect(answer?.message.id).toBe('a1');
    expect(answer?.text).toBe('Looking now');
    expect(answer?.message.status).toBe('pending');
  });

  it('shows an answer and a tool result the stored transcript does not have yet, paired as an exchange', () => {
    const view = play([
      { type: 'snapshot', sessionId: 's', afterSeq: 2, turnId: null, partialAnswers: [] },
      { type: 'turn-start', turnId: 't1', userMessageId: 'u1', model: 'gpt-test' },
      {
        type: 'tool-call',
        messageId: 'a1',
        toolCall: { id: 'call_1', name: 'run_command', arguments: '{"command":"ls"}' },
      },
      { type: 'message-complete', messageId: 'a1' },
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'run_command',
        isError: false,
        characters: 5,
        preview: 'a.txt',
      },
      { type: 'text-delta', messageId: 'a2', text: 'Found a.txt' },
    ]);
    const messages = withLiveTurn([user, pending], view, 's');
    expect(messages.map((entry) => [entry.message.role, entry.message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'pending'],
      ['tool', 'complete'],
      ['assistant', 'pending'],
    ]);
    const turn = buildTurns(messages)[0]!;
    expect(turn.messages[1]?.toolExchanges[0]).toMatchObject({ call: { id: 'call_1' }, resultText: 'a.txt' });
    expect(turn.messages.at(-1)?.text).toBe('Found a.txt');
  });

  it('shows nothing twice once the stored transcript has the turn, and says how it ended', () => {
    const view = play([
      { type: 'snapshot', sessionId: 's', afterSeq: 2, turnId: 't1', partialAnswers: [] },
      { type: 'text-delta', messageId: 'a1', text: 'Done.' },
      { type: 'turn-end', turnId: 't1', status: 'failed', error: { code: 'timeout', message: 'too slow' } },
    ]);
    expect(view.running).toBe(false);
    expect(view.ended).toEqual({ status: 'failed', error: { code: 'timeout', message: 'too slow' } });
    const stored = checked(
      { id: 'a1', seq: 2, role: 'assistant', contentParts: [{ type: 'text', text: 'Done.' }] },
      [0],
    );
    const messages = withLiveTurn([user, stored], view, 's');
    expect(messages).toEqual([user, stored]);
  });

  it('stops running when the API drops a reader that fell behind', () => {
    const view = play([
      { type: 'snapshot', sessionId: 's', afterSeq: 0, turnId: 't1', partialAnswers: [] },
      { type: 'dropped', reason: 'fell behind' },
    ]);
    expect(view).toMatchObject({ running: false, dropped: 'fell behind' });
  });
});
