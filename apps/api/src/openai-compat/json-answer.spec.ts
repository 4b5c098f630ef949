import type { ChatCompletionResult } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import { assertJsonAnswer, InvalidModelOutputError } from './json-answer';
import { toOpenAIError } from './openai-error';

const result = (fields: Partial<ChatCompletionResult>): ChatCompletionResult => ({
  provider: 'anthropic',
  model: 'claude-test',
  text: '',
  toolCalls: [],
  finishReason: 'stop',
  rawFinishReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, thinkingTokens: 0, cachedInputTokens: 0 },
  warnings: [],
  request: {},
  response: {},
  attempts: 1,
  ...fields,
});

const prose = result({
  text: 'Sure! Paris is lovely.',
  validation: {
    valid: false,
    errors: [{ path: '', keyword: 'json', message: 'answer is not valid JSON: x' }],
  },
});

describe('assertJsonAnswer', () => {
  it('refuses prose and non-objects under json_object, prose under json_schema', () => {
    expect(() => assertJsonAnswer(prose, 'json_object')).toThrow(InvalidModelOutputError);
    expect(() => assertJsonAnswer(prose, 'json_schema')).toThrow(/answer is not valid JSON: x/);
    expect(() => assertJsonAnswer(result({ text: '[1]', json: [1] }), 'json_object')).toThrow(
      /not a JSON object/,
    );
    expect(() => assertJsonAnswer(result({ text: '[1]', json: [1] }), 'json_schema')).not.toThrow();
    expect(() => assertJsonAnswer(result({ text: '{}', json: {} }), 'json_object')).not.toThrow();
  });

  it('lets through text answers, refusals, tool calls and cut-off answers, which say what they are', () => {
    expect(() => assertJsonAnswer(prose, undefined)).not.toThrow();
    for (const finishReason of ['refusal', 'length', 'content-filter', 'tool-calls'] as const)
      expect(() => assertJsonAnswer({ ...prose, finishReason }, 'json_object')).not.toThrow();
    const withCall = { ...prose, toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] };
    expect(() => assertJsonAnswer(withCall, 'json_object')).not.toThrow();
  });

  it('is answered as 502 invalid_model_output in OpenAI’s shape', () => {
    const error = (() => {
      try {
        assertJsonAnswer(prose, 'json_object');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(toOpenAIError(error)).toMatchObject({
      status: 502,
      body: { error: { type: 'server_error', code: 'invalid_model_output', param: null } },
    });
  });
});
