import { ApiErrorCode } from '@agentdesk/api-contract';

// The codes are part of the contract the console reads (@agentdesk/api-contract); re-exported for the API's own files.
export { ApiErrorCode };

/** A refusal the exception filter turns into `{ error: { code, message, requestId } }`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  /** Seconds a rate-limited caller should wait (sent as `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;
  /** The methods the path does allow (sent as `Allow` with `MethodNotAllowed`). */
  readonly allowedMethods: readonly string[] | undefined;

  constructor(
    code: ApiErrorCode,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number; allowedMethods?: readonly string[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.allowedMethods = options.allowedMethods;
  }
}

/** The one body every 401 carries, so a caller cannot tell a revoked key from an unknown one. */
export const UNAUTHENTICATED_MESSAGE =
  'A valid API key is required (Authorization: Bearer <key> or X-API-Key: <key>)';

/**
 * The 401 of a request carrying more than one credential. Its own wording says what to fix and tells
 * nothing about the keys (they are not checked: the server never picks one for the client).
 */
export const AMBIGUOUS_CREDENTIALS_MESSAGE =
  'Send exactly one API key: this request carries more than one credential (several Authorization or X-API-Key headers, both headers, or a comma-joined value)';

/** What a body in another format is told (every JSON route: the API takes JSON only). */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE =
  'The body must be JSON sent with Content-Type: application/json (UTF-8)';

/** What an oversized request line or header block is told. */
export const HEADERS_TOO_LARGE_MESSAGE =
  'The URL and headers are larger than this server accepts (16 KB): shorten the URL or the headers';

/** The one body every foreign or missing resource carries. */
export function notFoundError(what: string): ApiError {
  return new ApiError(ApiErrorCode.NotFound, `${what} not found`);
}
