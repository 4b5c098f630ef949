import { describe, expect, it } from 'vitest';
import { apiErrorOfClientError, requestPathOf, type ClientError } from './client-error-handler';

const clientError = (code: string): ClientError => Object.assign(new Error(code), { code });

describe('apiErrorOfClientError', () => {
  it('gives each parser refusal a code and a message that says what to fix', () => {
    const mapped = Object.fromEntries(
      [
        'HPE_HEADER_OVERFLOW',
        'ERR_HTTP_REQUEST_TIMEOUT',
        'HPE_HEADER_TIMEOUT',
        'HPE_UNEXPECTED_CONTENT_LENGTH',
        'HPE_INVALID_TRANSFER_ENCODING',
        'HPE_INVALID_CONTENT_LENGTH',
        'HPE_INVALID_METHOD',
        'HPE_INVALID_CHUNK_SIZE',
      ].map((code) => [code, apiErrorOfClientError(clientError(code)).code]),
    );
    expect(mapped).toEqual({
      HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
      ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
      HPE_HEADER_TIMEOUT: 'REQUEST_TIMEOUT',
      HPE_UNEXPECTED_CONTENT_LENGTH: 'VALIDATION_FAILED',
      HPE_INVALID_TRANSFER_ENCODING: 'VALIDATION_FAILED',
      HPE_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
      HPE_INVALID_METHOD: 'VALIDATION_FAILED',
      HPE_INVALID_CHUNK_SIZE: 'VALIDATION_FAILED',
    });
    expect(apiErrorOfClientError(clientError('HPE_INVALID_CHUNK_SIZE')).message).toContain(
      'HPE_INVALID_CHUNK_SIZE',
    );
  });
});

describe('requestPathOf', () => {
  it('reads the path from the request line received so far, even cut short', () => {
    expect(requestPathOf(Buffer.from('GET /v1/models?x=1 HTTP/1.1\r\nHost: a\r\n'))).toBe('/v1/models');
    expect(requestPathOf(Buffer.from(`GET /v1/chat/completions?q=${'a'.repeat(9000)}`))).toBe(
      '/v1/chat/completions',
    );
    expect(requestPathOf(undefined)).toBe('/');
    expect(requestPathOf('GET /x HTTP/1.1')).toBe('/');
    expect(requestPathOf(Buffer.from('garbage'))).toBe('/');
  });
});
