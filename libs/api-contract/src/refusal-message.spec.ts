import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from './errors';
import { refusalMessageOf } from './refusal-message';

describe('the message shown for a refused call', () => {
  it.each([
    [503, ApiErrorCode.NotReady, 'The sandbox is unavailable: connect ENOENT /tmp/docker.sock'],
    [403, ApiErrorCode.Forbidden, 'This key may not manage the sandbox'],
    [404, ApiErrorCode.NotFound, 'The sandbox is disabled on this server'],
  ])('is the API’s own message and code (%i)', (status, code, message) => {
    expect(refusalMessageOf(status, { error: { code, message, requestId: 'r-1' } })).toBe(
      `${message} (${code})`,
    );
  });

  it.each([undefined, null, 'Bad Gateway', { error: 'boom' }, { error: { code: 'NOPE', message: 'x' } }])(
    'falls back to the status when the body is not the API’s error body (%j)',
    (body) => {
      expect(refusalMessageOf(502, body)).toBe('The request failed with HTTP 502');
    },
  );
});
