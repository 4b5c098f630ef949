import type { MessageJson } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { turnMayBeRunning, UNFINISHED_TURN_WATCH_MS } from './live-turn';

const at = Date.parse('2026-01-31T12:00:00.000Z');
function message(fields: Partial<MessageJson> & Pick<MessageJson, 'role'>): MessageJson {
  return {
    id: 'm',
    sessionId: 's',
    seq: 1,
    contentParts: [],
    toolCalls: null,
    toolCallId: null,
    usage: null,
    status: 'complete',
    error: null,
    model: null,
    compressionEvents: null,
    startedAt: new Date(at).toISOString(),
    finishedAt: new Date(at).toISOString(),
    createdAt: new Date(at).toISOString(),
    ...fields,
  };
}
const toolCall = { id: 'call_1', name: 'read_tool_result', arguments: '{}' };

describe('turnMayBeRunning', () => {
  it('follows a transcript with a pending message, however old', () => {
    expect(
      turnMayBeRunning(
        [message({ role: 'user' }), message({ role: 'assistant', status: 'pending', finishedAt: null })],
        at + 3_600_000,
      ),
    ).toBe(true);
  });

  it.each([
    ['a user message awaiting its answer', message({ role: 'user' })],
    ['a tool result awaiting the next model call', message({ role: 'tool', toolCallId: 'call_1' })],
    ['an assistant message asking for tools', message({ role: 'assistant', toolCalls: [toolCall] })],
  ])('follows %s for a while, then gives up', (_name, last) => {
    expect(turnMayBeRunning([last], at + 1_000)).toBe(true);
    expect(turnMayBeRunning([last], at + UNFINISHED_TURN_WATCH_MS + 1)).toBe(false);
  });

  it.each([
    ['an answered turn', message({ role: 'assistant' })],
    ['a failed turn', message({ role: 'user', status: 'failed' })],
    ['an empty transcript', undefined],
  ])('does not follow %s', (_name, last) => {
    expect(turnMayBeRunning(last === undefined ? [] : [last], at + 1_000)).toBe(false);
  });
});
