import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readSingleHeader } from './raw-headers';

/** Client-supplied ids we keep (for correlation only); anything else is dropped. */
const acceptedClientRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header carrying the server's request id out (and a client's own id in). */
export const REQUEST_ID_HEADER = 'x-request-id';

const serverRequestIds = new WeakMap<IncomingMessage, string>();

/**
 * Fastify's `genReqId`: this server's own id for the request, a random UUID, the same on every
 * call for one request. A client's `X-Request-Id` is never the request id: anyone can send any
 * id — another request's, an audit record's — and the request id is what logs, error bodies and
 * audit records are joined on. The client's id is kept apart (`clientRequestIdOf`).
 */
export function requestIdOf(request: IncomingMessage): string {
  let id = serverRequestIds.get(request);
  if (id === undefined) {
    id = randomUUID();
    serverRequestIds.set(request, id);
  }
  return id;
}

/** The client's own `X-Request-Id` when well-formed (one header, `[A-Za-z0-9._:-]{1,128}`), else null. */
export function clientRequestIdOf(request: IncomingMessage): string | null {
  const incoming = readSingleHeader(request.rawHeaders, REQUEST_ID_HEADER);
  return incoming.kind === 'once' && acceptedClientRequestId.test(incoming.value) ? incoming.value : null;
}

/** Handler parameter: this request's id (also in every log line and error body). */
export const RequestId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<FastifyRequest>().id,
);

/** Handler parameter: the client's own `X-Request-Id` (null when absent or malformed). */
export const ClientRequestId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | null =>
    clientRequestIdOf(context.switchToHttp().getRequest<FastifyRequest>().raw),
);

/** Fastify's `childLoggerFactory`: a client's own id stays in the logs, next to (never instead of) the server's. */
export const childLoggerWithClientRequestId: NonNullable<FastifyServerOptions['childLoggerFactory']> =
  function (parent, bindings, options, rawRequest) {
    const clientRequestId = clientRequestIdOf(rawRequest);
    return parent.child(clientRequestId === null ? bindings : { ...bindings, clientRequestId }, options);
  };
