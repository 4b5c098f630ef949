import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../errors/api-error';
import { httpStatusOf } from '../errors/http-status';
import { failedTurnError } from './turn-outcome';
import { toTurnError } from './turn/turn-failure';

const failedWith = (error: unknown) => {
  const turnError = toTurnError(error, new AbortController().signal);
  return failedTurnError({ turnId: 't1', status: 'failed', replayed: false, messages: [], error: turnError });
};

describe('failedTurnError', () => {
  it.each([
    ['a stack overflow', new RangeError('Maximum call stack size exceeded')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
  ])(
    'answers an exception of our own (%s) with 500 and the generic message, not as an upstream failure',
    (_name, error) => {
      const answer = failedWith(error);
      expect(answer.code).toBe(ApiErrorCode.Internal);
      expect(httpStatusOf(answer.code)).toBe(500);
      expect(answer.message).toContain('The turn failed unexpectedly; the error was logged');
      expect(answer.message).not.toContain(error.message);
    },
  );

  it('keeps 502 for a provider failure and 504 for a timeout', () => {
    const upstream = failedTurnError({
      turnId: 't1',
      status: 'failed',
      replayed: false,
      messages: [],
      error: { code: 'network_error', message: 'socket hang up', provider: 'openai' },
    });
    expect(httpStatusOf(upstream.code)).toBe(502);
    const timeout = failedTurnError({
      turnId: 't1',
      status: 'failed',
      replayed: false,
      messages: [],
      error: { code: 'timeout', message: 'too slow', provider: 'openai' },
    });
    expect(httpStatusOf(timeout.code)).toBe(504);
  });
});
