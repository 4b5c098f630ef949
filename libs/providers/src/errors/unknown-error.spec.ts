import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider-error';
import { isTransportFailure, unknownError } from './unknown-error';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('unknownError: only transport failures and unparsable provider bytes are the provider’s', () => {
  it.each([
    [
      'undici "fetch failed" over a refused connection',
      new TypeError('fetch failed', { cause: withCode('connect', 'ECONNREFUSED') }),
    ],
    [
      'undici "terminated" (a cut body)',
      new TypeError('terminated', { cause: withCode('other side closed', 'UND_ERR_SOCKET') }),
    ],
    ['a reset socket', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a DNS failure', withCode('getaddrinfo EAI_AGAIN api', 'EAI_AGAIN')],
    ['a stream closed early', withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE')],
    [
      'a TLS failure two causes down',
      new Error('outer', {
        cause: new Error('mid', { cause: withCode('tls', 'ERR_SSL_WRONG_VERSION_NUMBER') }),
      }),
    ],
  ])('%s is a retryable network_error', (_name, error) => {
    expect(isTransportFailure(error)).toBe(true);
    expect(unknownError('openai', error)).toMatchObject({ code: 'network_error', isRetryable: true });
  });

  it('a SyntaxError from parsing the provider’s bytes is a retryable malformed_response', () => {
    expect(unknownError('anthropic', new SyntaxError('Unexpected token'))).toMatchObject({
      code: 'malformed_response',
      isRetryable: true,
    });
  });

  it('an AbortError is an abort, never retried', () => {
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(unknownError('gemini', abort)).toMatchObject({ code: 'aborted', isRetryable: false });
  });

  it.each([
    ['a stack overflow', new RangeError('Maximum call stack size exceeded')],
    ['a TypeError from a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    [
      'a TypeError with a cause that is no transport failure',
      new TypeError('bad', { cause: new Error('x') }),
    ],
    ['a Node argument error', withCode('The "data" argument must be…', 'ERR_INVALID_ARG_TYPE')],
    ['a plain Error', new Error('invariant broken')],
    ['a thrown string', 'oops'],
    [
      'a cyclic cause chain',
      (() => {
        const error: Error & { cause?: unknown } = new Error('loop');
        error.cause = error;
        return error;
      })(),
    ],
  ])('%s is ours: not a ProviderError', (_name, error) => {
    expect(isTransportFailure(error)).toBe(false);
    expect(unknownError('openai', error)).toBeUndefined();
    expect(unknownError('openai', error)).not.toBeInstanceOf(ProviderError);
  });
});
