import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text';
import { plainConversation } from '../conversation/conversation-facts';
import { defaultReplyText } from './default-answer';
import { planAnswer } from './reply-plan';

describe('planAnswer', () => {
  it('defaults to the short text, or JSON when the request asked for it', () => {
    expect(
      planAnswer(
        undefined,
        { json: { kind: 'none' }, conversation: plainConversation, requestCharacters: 40 },
        8,
      ),
    ).toMatchObject({
      text: defaultReplyText,
      finish: 'stop',
      usage: { inputTokens: 10, outputTokens: 9 },
    });
    expect(
      planAnswer(
        undefined,
        { json: { kind: 'object' }, conversation: plainConversation, requestCharacters: 1 },
        8,
      ).text,
    ).toBe('{"result":"ok"}');
    expect(
      planAnswer(
        undefined,
        {
          json: { kind: 'enum-text', schema: { type: 'STRING', enum: ['a', 'b'] } },
          conversation: plainConversation,
          requestCharacters: 1,
        },
        8,
      ).text,
    ).toBe('a');
  });

  it('keeps usage invariants: cache counts within input, reasoning within output', () => {
    const plan = planAnswer(
      {
        kind: 'text',
        text: 'abcd',
        usage: { inputTokens: 5, cachedInputTokens: 4, cacheCreationInputTokens: 3, reasoningTokens: 6 },
      },
      { json: { kind: 'none' }, conversation: plainConversation, requestCharacters: 100 },
      8,
    );
    expect(plan.usage).toEqual({
      inputTokens: 7,
      outputTokens: 7,
      cachedInputTokens: 4,
      cacheCreationInputTokens: 3,
      reasoningTokens: 6,
    });
  });
});

describe('chunkText', () => {
  it('never splits a surrogate pair', () => {
    expect(chunkText('a😀b😀', 2)).toEqual(['a😀', 'b😀']);
    expect(chunkText('', 3)).toEqual([]);
    expect(chunkText('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });
});
