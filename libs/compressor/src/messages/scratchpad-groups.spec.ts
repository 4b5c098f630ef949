import type { ChatMessage } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import { callAndResult } from '../test-support/scratchpad-fixtures';
import { groupScratchpad, ScratchpadInputError, splitScratchpad } from './scratchpad-groups';

describe('groupScratchpad', () => {
  it('groups each call with its results, parallel calls included', () => {
    const parallel: ChatMessage[] = [
      {
        role: 'assistant',
        content: 'two lookups',
        toolCalls: [
          { id: 'a', name: 'x', arguments: '{}' },
          { id: 'b', name: 'y', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'b', toolName: 'y', content: 'B' },
      { role: 'tool', toolCallId: 'a', toolName: 'x', content: 'A' },
    ];
    const note: ChatMessage = { role: 'assistant', content: 'thinking' };
    const groups = groupScratchpad([...callAndResult('c1', 'sql', 'r1'), note, ...parallel]);
    expect(groups.map((group) => group.messages.length)).toEqual([2, 1, 3]);
    expect(groups[2]!.results.map((result) => result.toolCallId)).toEqual(['b', 'a']);
    expect(groups[1]!.call).toBeUndefined();
  });

  it('keeps a tool message whose call is missing as a group of its own', () => {
    const orphan: ChatMessage = { role: 'tool', toolCallId: 'gone', toolName: 't', content: 'r' };
    const groups = groupScratchpad([orphan, ...callAndResult('c1', 'sql', 'r1')]);
    expect(groups.map((group) => group.messages)).toEqual([[orphan], callAndResult('c1', 'sql', 'r1')]);
  });

  it('refuses system and user messages: they are never compressed', () => {
    expect(() => groupScratchpad([{ role: 'user', content: 'hi' }])).toThrow(ScratchpadInputError);
    expect(() =>
      groupScratchpad([...callAndResult('c', 't', 'r'), { role: 'system', content: 's' }]),
    ).toThrow(/entry 2 is a system message/);
  });
});

describe('splitScratchpad', () => {
  it('separates the scratchpad after the last user message and returns the prefix untouched', () => {
    const system: ChatMessage = { role: 'system', content: 'You are helpful.' };
    const user: ChatMessage = { role: 'user', content: 'How many orders?' };
    const earlier = callAndResult('c0', 'sql', 'old');
    const scratchpad = callAndResult('c1', 'sql', 'new');
    const { prefix, scratchpad: split } = splitScratchpad([system, ...earlier, user, ...scratchpad]);
    expect(prefix).toEqual([system, ...earlier, user]);
    expect(prefix[0]).toBe(system);
    expect(split).toEqual(scratchpad);
    expect(splitScratchpad([user])).toEqual({ prefix: [user], scratchpad: [] });
    expect(splitScratchpad(scratchpad)).toEqual({ prefix: [], scratchpad });
  });
});
