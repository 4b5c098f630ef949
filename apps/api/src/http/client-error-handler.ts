import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, ApiErrorCode, HEADERS_TOO_LARGE_MESSAGE } from '../errors/api-error';
import { randomUUID } from 'node:crypto';

/** An error Node's HTTP parser reports on a connection (`clientError`), before any request exists. */
export interface ClientError extends Error {
  readonly code?: string;
  /** The bytes received so far (a Buffer, for a parse error), which may start with the request line. */
  readonly rawPacket?: unknown;
}

/** One error answer: its status, extra headers and JSON body, in the shape its path calls for. */
export interface RawErrorAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** What the handler needs: how to shape an answer for a path, and where to report it. */
export interface ClientErrorHandling {
  readonly answer: (error: ApiError, path: string, requestId: string) => RawErrorAnswer;
  readonly report: (error: ApiError, cause: ClientError) => void;
}

/** The refusal of a request Node's parser could not read; Node's code is named for the client. */
export function apiErrorOfClientError(error: ClientError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(ApiErrorCode.HeadersTooLarge, HEADERS_TOO_LARGE_MESSAGE, { cause: error });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADER_TIMEOUT':
      return new ApiError(ApiErrorCode.RequestTimeout, 'The request was not received in time', {
        cause: error,
      });
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      // Both framings at once is how requests are smuggled past proxies: never guess which one counts.
      return new ApiError(
        ApiErrorCode.ValidationFailed,
        'Transfer-Encoding must be "chunked" and must not be sent together with Content-Length (send one framing)',
        { cause: error },
      );
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new ApiError(
        ApiErrorCode.ValidationFailed,
        'Content-Length must be one whole number (sent once)',
        { cause: error },
      );
    case 'HPE_INVALID_METHOD':
      return new ApiError(ApiErrorCode.ValidationFailed, 'The request method is not an HTTP method', {
        cause: error,
      });
    default:
      return new ApiError(
        ApiErrorCode.ValidationFailed,
        `The request is not valid HTTP/1.1 (${error.code ?? 'unreadable'})`,
        { cause: error },
      );
  }
}

/** The request path in the first line of what was received (`GET /v1/models?x HTTP/1.1`), if any. */
export function requestPathOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const firstLine = rawPacket.subarray(0, 4096).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = firstLine.split(' ')[1] ?? '/';
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses (a 20 KB URL → 431, both
 * Content-Length and Transfer-Encoding → 400, a bad chunk, a timeout → 408) get the same error
 * body as every other error — in OpenAI's shape on the OpenAI-compatible paths — with a request
 * id, instead of Fastify's default body. The connection is closed after the answer: the parser
 * cannot find the next request in it.
 */
export function createClientErrorHandler(handling: ClientErrorHandling) {
  return function handleClientError(error: ClientError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = apiErrorOfClientError(error);
    handling.report(apiError, error);
    // Node's own rule: nothing may be written once an answer to this connection has started.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent === true) {
      socket.destroy();
      return;
    }
    // No request object exists yet: the id is made here, in the same form as every other one.
    const requestId = randomUUID();
    const answer = handling.answer(apiError, requestPathOf(error.rawPacket), requestId);
    const body = JSON.stringify(answer.body);
    const headers: Record<string, string> = {
      ...answer.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`,
    );
  };
}
