import { synchronousHook } from './synchronous-hook';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { errorBody } from '../errors/error-body';
import { httpStatusOf } from '../errors/http-status';
import type { ApiMetrics } from '../metrics/api-metrics';
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

/** What answering an error needs besides the request. */
export interface ErrorReporting {
  readonly logger: Logger;
  readonly metrics: ApiMetrics;
}

/**
 * Another API's error shape for some paths (the OpenAI-compatible routes), handed in by the app so
 * this layer never imports a feature.
 */
export interface PathErrorShape {
  /** True for a request path (no query string) this shape answers for. */
  matches(path: string): boolean;
  /** Logs, counts and answers any failure on such a path. */
  send(exception: unknown, request: FastifyRequest, reply: FastifyReply, reporting: ErrorReporting): void;
  /** An error decided before routing (unreadable request), in this shape. */
  answer(error: ApiError): RawErrorAnswer;
}

/**
 * Builds the error answering of the HTTP layer: AgentDesk's `{ error: { code, message,
 * requestId } }` everywhere, another shape on the paths a `PathErrorShape` claims — including
 * errors no route handler sees (unknown paths, wrong methods, unreadable requests).
 */
export function createHttpErrorHandling(dependencies: {
  readonly logger: Logger;
  readonly metrics: ApiMetrics;
  /** Filled by an `onRoute` hook while the app starts; read when answering. */
  readonly routes: readonly RoutePattern[];
  readonly pathShapes?: readonly PathErrorShape[];
}): HttpErrorHandling {
  const { logger, metrics, routes, pathShapes = [] } = dependencies;
  const reporting = { logger, metrics };
  const filter = new ApiExceptionFilter(logger, {
    onError: (code) => metrics.errors.inc({ code }),
    overrides: pathShapes.map((shape) => ({
      matches: (path: string) => shape.matches(path),
      send: (exception: unknown, request: FastifyRequest, reply: FastifyReply) =>
        shape.send(exception, request, reply, reporting),
    })),
    allowedMethods: (path) => allowedMethodsFor(routes, path),
  });
  const answer = (error: ApiError, path: string, requestId: string): RawErrorAnswer => {
    const shape = pathShapes.find((candidate) => candidate.matches(path));
    if (shape !== undefined) return shape.answer(error);
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
  fastify.addHook(
    'onRequest',
    synchronousHook((_request, reply) => {
      if (!closing) return;
      void reply.header('connection', 'close');
      throw new ApiError(ApiErrorCode.NotReady, 'The server is shutting down: send the request again');
    }),
  );
}
