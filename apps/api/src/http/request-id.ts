import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

/** Incoming ids we accept and propagate (a proxy's or client's); anything else gets a fresh id. */
const acceptedRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header carrying the request id, in and out. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Fastify's `genReqId`: the caller's `X-Request-Id` when well-formed, else a random UUID (cheap: pooled entropy). */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && acceptedRequestId.test(incoming) ? incoming : randomUUID();
}

/** Handler parameter: this request's id (also in every log line and error body). */
export const RequestId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<FastifyRequest>().id,
);
