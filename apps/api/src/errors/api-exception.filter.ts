import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type ApiErrorCode } from './api-error';
import { errorBody } from './error-body';
import { httpStatusOf } from './http-status';
import { toApiError } from './to-api-error';

/**
 * The one place errors become HTTP answers: `{ error: { code, message, requestId } }` with the
 * status of `httpStatusOf(code)`. Registered globally, so it also handles Fastify's own request
 * errors (oversized or malformed bodies) and Nest's not-found handler.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly onError: (code: ApiErrorCode) => void = () => undefined,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const error = toApiError(exception);
    const status = httpStatusOf(error.code);
    const requestId = typeof request?.id === 'string' ? request.id : null;
    if (status >= 500) {
      this.logger.error({ err: exception, requestId, code: error.code }, 'request failed');
    } else {
      this.logger.debug({ requestId, code: error.code, reason: error.message }, 'request refused');
    }
    this.onError(error.code);
    if (reply.sent) return;
    if (error.retryAfterSeconds !== undefined)
      void reply.header('retry-after', String(error.retryAfterSeconds));
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorBody(error, requestId));
  }
}
