import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { errorBody } from '../errors/error-body';
import { httpStatusOf } from '../errors/http-status';
import type { ApiMetrics } from '../metrics/api-metrics';
import { fromApiError } from '../openai-compat/openai-error';
import { isOpenAICompatPath } from '../openai-compat/openai-paths';
import { sendOpenAIError } from '../openai-compat/send-openai-error';
import { allowedMethodsFor, type RoutePattern } from './allowed-methods';
import { createClientErrorHandler, type RawErrorAnswer } from './client-error-handler';
import { REQUEST_ID_HEADER } from './request-id';

/** The three places an error can be answered, all giving the one error shape of the path. */
export interface HttpErrorHandling {
  /** The global Nest exception filter (handlers, guards, hooks, body parsing, 404/405). */
  readonly filter: ApiExceptionFilter;
  /** Fastify's `frameworkErrors`: errors before routing (a malformed URL escape). */
  readonly frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;
  /** Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (431, bad framing). */
  readonly clientErrorHandler: ReturnType<typeof createClientErrorHandler>;
}

/**
 * Builds the error answering of the HTTP layer: AgentDesk's `{ error: { code, message,
 * requestId } }` everywhere, OpenAI's error body on the OpenAI-compatible paths — including
 * errors no route handler sees (unknown paths, wrong methods, unreadable requests).
 */
export function createHttpErrorHandling(dependencies: {
  readonly logger: Logger;
  readonly metrics: ApiMetrics;
  /** Filled by an `onRoute` hook while the app starts; read when answering. */
  readonly routes: readonly RoutePattern[];
}): HttpErrorHandling {
  const { logger, metrics, routes } = dependencies;
  const reporting = { logger, metrics };
  const filter = new ApiExceptionFilter(logger, {
    onError: (code) => metrics.errors.inc({ code }),
    overrides: [
      {
        matches: isOpenAICompatPath,
        send: (exception, request, reply) => sendOpenAIError(exception, request, reply, reporting),
      },
    ],
    allowedMethods: (path) => allowedMethodsFor(routes, path),
  });
  const answer = (error: ApiError, path: string, requestId: string): RawErrorAnswer => {
    if (isOpenAICompatPath(path)) {
      const openAI = fromApiError(error);
      return { status: openAI.status, body: openAI.body, ...(openAI.headers && { headers: openAI.headers }) };
    }
    return { status: httpStatusOf(error.code), body: errorBody(error, requestId) };
  };
  return {
    filter,
    frameworkErrors: (error, request, reply) => {
      const apiError =
        error.code === 'FST_ERR_BAD_URL'
          ? new ApiError(ApiErrorCode.ValidationFailed, 'The URL is malformed (check its percent-encoding)', {
              cause: error,
            })
          : error;
      void reply.header(REQUEST_ID_HEADER, request.id);
      filter.send(apiError, request, reply);
    },
    clientErrorHandler: createClientErrorHandler({
      answer,
      report: (error, cause) => {
        metrics.errors.inc({ code: error.code });
        logger.debug({ code: error.code, reason: cause.code }, 'unreadable request refused');
      },
    }),
  };
}

/**
 * While the server drains (after `close()` began), requests still arriving on open keep-alive
 * connections get 503 `NOT_READY` in the API's error body, with `Connection: close`, so clients
 * and load balancers retry elsewhere. (Replaces Fastify's `return503OnClosing`, whose body is
 * Fastify's own.)
 */
export function refuseRequestsWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    void reply.header('connection', 'close');
    throw new ApiError(ApiErrorCode.NotReady, 'The server is shutting down: send the request again');
  });
}
