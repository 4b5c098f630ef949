import { turnErrorCodes, type TurnErrorCode } from '@agentdesk/api-contract';
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

  it('answers every turn error code with one 4xx/5xx: a bad schema 400, a timeout 504, our bug 500, the rest 502', () => {
    const expected: Partial<Record<TurnErrorCode, ApiErrorCode>> = {
      invalid_schema: ApiErrorCode.ValidationFailed,
      timeout: ApiErrorCode.UpstreamTimeout,
      internal_error: ApiErrorCode.Internal,
    };
    for (const code of turnErrorCodes) {
      const answer = failedTurnError({
        turnId: 't1',
        status: 'failed',
        replayed: false,
        messages: [],
        error: { code, message: 'it failed' },
      });
      expect(answer.code).toBe(expected[code] ?? ApiErrorCode.UpstreamFailed);
    }
    const withoutError = failedTurnError({ turnId: 't1', status: 'failed', replayed: false, messages: [] });
    expect(withoutError.code).toBe(ApiErrorCode.UpstreamFailed);
    expect(withoutError.message).toBe(
      'The turn failed. The turn t1 was recorded as failed; your message is kept in the session.',
    );
  });
});
