/** Every way the HTTP API can refuse a request; each maps to exactly one status (`http-status.ts`). */
export enum ApiErrorCode {
  /** No credential, a malformed one, an unknown one or a revoked one: always the same answer. */
  Unauthenticated = 'UNAUTHENTICATED',
  /** The caller is known but its role may not call this function. */
  Forbidden = 'FORBIDDEN',
  /** A portal key called an end-user route without naming the end user. */
  EndUserRequired = 'END_USER_REQUIRED',
  /** Missing — or belonging to someone else: deliberately indistinguishable. */
  NotFound = 'NOT_FOUND',
  /** No route matches the method and path. */
  RouteNotFound = 'ROUTE_NOT_FOUND',
  /** The path exists, but not with this method (the answer's `Allow` header lists the methods). */
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  /** The body, a query parameter, a path parameter or a header is invalid. */
  ValidationFailed = 'VALIDATION_FAILED',
  /** The body is larger than the configured limit. */
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** The body is not JSON. */
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  /** The request line (URL) and headers are larger than the server accepts. */
  HeadersTooLarge = 'HEADERS_TOO_LARGE',
  /** The client did not send the whole request in time. */
  RequestTimeout = 'REQUEST_TIMEOUT',
  /** A uniqueness rule would be broken. */
  Conflict = 'CONFLICT',
  /** The session is closed. */
  SessionClosed = 'SESSION_CLOSED',
  /** An `Idempotency-Key` already used with a different request (body, session or streaming mode). */
  IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED',
  /** Too many requests for this principal (or too many failed credentials from this address). */
  RateLimited = 'RATE_LIMITED',
  /** A dependency (the database) is not reachable. */
  NotReady = 'NOT_READY',
  /** The model named matches no provider route. */
  UnknownModel = 'UNKNOWN_MODEL',
  /** The model's provider has no credentials on this server. */
  ProviderNotConfigured = 'PROVIDER_NOT_CONFIGURED',
  /** The model provider failed (after retries); the turn was recorded as failed. */
  UpstreamFailed = 'UPSTREAM_FAILED',
  /** The model provider did not answer in time; the turn was recorded as failed. */
  UpstreamTimeout = 'UPSTREAM_TIMEOUT',
  /** A bug: details are logged, never sent. */
  Internal = 'INTERNAL',
}

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
