import type { FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { readSingleHeader } from './raw-headers';

/**
 * Fastify `onRequest` hook: an HTTP/1.1 request must carry exactly one `Host` header (RFC 9112
 * §3.2), else 400. Node would refuse a missing one itself (`requireHostHeader`) with an empty
 * 400 outside the API's error body, so the server is created with that check off and it is made
 * here, in the one error shape. HTTP/1.0 requests may omit it.
 */
export function refuseMissingOrRepeatedHost(request: FastifyRequest): void {
  const host = readSingleHeader(request.raw.rawHeaders, 'host');
  if (host.kind === 'once' || (host.kind === 'absent' && request.raw.httpVersion === '1.0')) return;
  throw new ApiError(
    ApiErrorCode.ValidationFailed,
    host.kind === 'absent'
      ? 'The Host header is missing (HTTP/1.1 requests must send exactly one)'
      : `The request has ${host.count} Host headers (HTTP/1.1 requests must send exactly one)`,
  );
}

/**
 * An `Expect` other than `100-continue` would get Node's own empty 417. RFC 9110 §10.1.1 lets a
 * server ignore an expectation it does not support, so the request is answered as usual (in the
 * API's error body when refused).
 */
export function answerUnknownExpectations(server: Server): void {
  server.on('checkExpectation', (request, response) => {
    server.emit('request', request, response);
  });
}
