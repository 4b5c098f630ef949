import { z } from 'zod';

/** Every way the HTTP API can refuse a request; each maps to exactly one status (the API's `http-status.ts`). */
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

/** The stable error body of every refusal. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ApiErrorCode),
    message: z.string(),
    requestId: z.string().nullable(),
  }),
});

/** The JSON body for an error. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
