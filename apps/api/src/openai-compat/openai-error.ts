import type { UnstorableText } from '@agentdesk/storage';
import { z, type ZodError } from 'zod';
import { classifyModelFailure, type ModelFailure, type UpstreamDetails } from '../model-access/model-failure';
import { modelFailureToApiError } from '../model-access/model-failure-to-api-error';
import { ApiErrorCode, UNAUTHENTICATED_MESSAGE, type ApiError } from '../errors/api-error';
import { assertNever } from '../errors/assert-never';
import { httpStatusOf } from '../errors/http-status';
import { toApiError } from '../errors/to-api-error';

/** OpenAI's error body, which every OpenAI-compatible client knows how to read. */
export const openAIErrorBodySchema = z
  .object({
    error: z
      .object({
        message: z.string(),
        type: z.string(),
        param: z.string().nullable(),
        code: z.string().nullable(),
      })
      .strict(),
  })
  .strict();

export type OpenAIErrorBody = z.infer<typeof openAIErrorBodySchema>;

/** The status, body and extra headers of one OpenAI-shaped error answer. */
export interface OpenAIErrorResponse {
  status: number;
  body: OpenAIErrorBody;
  /**
   * `retry-after` (seconds) when the caller should wait; `x-should-retry: false` when AgentDesk
   * already ran the stack's one retry loop against the provider, so an SDK must not add a second.
   */
  headers?: Record<string, string>;
}

/** An error decided by the OpenAI-compatible routes themselves (e.g. validation), already in OpenAI's shape. */
export class OpenAICompatError extends Error {
  override readonly name = 'OpenAICompatError';
  constructor(readonly response: OpenAIErrorResponse) {
    super(response.body.error.message);
  }
}

const body = (
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): OpenAIErrorBody => ({
  error: { message, type, param, code },
});

/** A zod path in OpenAI's notation: `messages[0].content`. */
function paramOf(path: readonly PropertyKey[]): string | null {
  if (path.length === 0) return null;
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '');
}

/** The value at a zod path of the body as sent (undefined where the body has no such field). */
function sentValueAt(sent: unknown, path: readonly PropertyKey[]): unknown {
  let value = sent;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Zod issues in OpenAI's wording: unknown fields are "Unrecognized request argument supplied",
 * missing ones "Missing required parameter". One issue is reported, as OpenAI does: an unknown
 * field first (whatever else is wrong, the client sent something this API does not know).
 * `sent` is the body that was validated: a field is missing when it has none there, whichever
 * rule found it (a required key, or a refinement such as `json_schema.name`'s).
 */
export function fromValidationError(error: ZodError, sent: unknown): OpenAIErrorResponse {
  const issue = error.issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? error.issues[0];
  if (issue === undefined) return { status: 400, body: body('Invalid request', 'invalid_request_error') };
  const param = paramOf(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => (param === null ? key : `${param}.${key}`));
    const noun = names.length === 1 ? 'argument' : 'arguments';
    return {
      status: 400,
      body: body(
        `Unrecognized request ${noun} supplied: ${names.join(', ')}`,
        'invalid_request_error',
        param,
        'unrecognized_argument',
      ),
    };
  }
  if (param === null) {
    return {
      status: 400,
      body: body(
        'The request body must be a JSON object (Content-Type: application/json)',
        'invalid_request_error',
        null,
        'invalid_body',
      ),
    };
  }
  if (
    (issue.code === 'invalid_type' || issue.code === 'custom') &&
    sentValueAt(sent, issue.path) === undefined
  ) {
    return {
      status: 400,
      body: body(
        `Missing required parameter: '${param}'.`,
        'invalid_request_error',
        param,
        'missing_required_parameter',
      ),
    };
  }
  return {
    status: 400,
    body: body(
      `Invalid value for '${param}': ${issue.message}`,
      'invalid_request_error',
      param,
      'invalid_value',
    ),
  };
}

/** Text no provider or database should receive (NUL, an unpaired surrogate), with its OpenAI `param`. */
export function fromUnstorableText(found: UnstorableText): OpenAIErrorResponse {
  const param = paramOf(found.path);
  const what =
    found.key === undefined ? found.problem : `the key ${JSON.stringify(found.key)} ${found.problem}`;
  return {
    status: 400,
    body: body(
      param === null ? `Invalid request body: ${what}` : `Invalid value for '${param}': ${what}`,
      'invalid_request_error',
      param,
      'invalid_value',
    ),
  };
}

/**
 * Retrying is done: the stack's single retry loop already ran against the provider, so an SDK must
 * not add a second (`x-should-retry: false`); the provider's wait is passed on as `retry-after`.
 */
function upstreamHeaders(upstream: UpstreamDetails): Record<string, string> {
  const headers: Record<string, string> = { 'x-should-retry': 'false' };
  if (upstream.retryAfterMs !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(upstream.retryAfterMs / 1000)));
  return headers;
}

/** A failure the provider reported, with its status passed on and its code kept. */
function fromUpstream(
  upstream: UpstreamDetails,
  status: number,
  type: string,
  fallbackCode: string | null,
): OpenAIErrorResponse {
  return {
    status,
    body: body(`${upstream.provider}: ${upstream.message}`, type, null, upstream.code ?? fallbackCode),
    headers: upstreamHeaders(upstream),
  };
}

/** Maps a model failure to the status and body OpenAI clients expect. Exhaustive over the kinds. */
export function fromModelFailure(failure: ModelFailure): OpenAIErrorResponse {
  switch (failure.kind) {
    case 'unknown-model':
      return {
        status: 404,
        body: body(failure.message, 'invalid_request_error', 'model', 'model_not_found'),
      };
    case 'provider-not-configured':
      return { status: 503, body: body(failure.message, 'server_error', 'model', 'provider_not_configured') };
    case 'invalid-schema':
      return {
        status: 400,
        body: body(failure.message, 'invalid_request_error', 'response_format', 'invalid_schema'),
      };
    case 'invalid-request':
      return fromUpstream(failure.upstream, failure.upstream.status ?? 400, 'invalid_request_error', null);
    case 'rate-limited':
      return fromUpstream(failure.upstream, 429, 'rate_limit_error', null);
    case 'authentication': {
      // The provider refused this server's credentials, not the caller's key: a gateway failure.
      const { provider } = failure.upstream;
      return {
        status: 502,
        body: body(
          `${provider} refused this server's provider credentials: ${failure.message}`,
          'server_error',
          null,
          'upstream_authentication_failed',
        ),
        headers: upstreamHeaders(failure.upstream),
      };
    }
    case 'timeout':
      return failure.upstream
        ? {
            status: 504,
            body: body(
              `${failure.upstream.provider}: ${failure.message}`,
              'server_error',
              null,
              'upstream_timeout',
            ),
            headers: upstreamHeaders(failure.upstream),
          }
        : { status: 504, body: body(failure.message, 'server_error', null, 'upstream_timeout') };
    case 'upstream-unavailable':
      return fromUpstream(failure.upstream, 502, 'server_error', 'upstream_error');
    case 'output-invalid':
      return { status: 502, body: body(failure.message, 'server_error', null, 'invalid_model_output') };
    case 'context-budget-exceeded':
      return { status: 502, body: body(failure.message, 'server_error', null, 'context_budget_exceeded') };
    case 'cancelled':
      return { status: 499, body: body('The client closed the request', 'invalid_request_error') };
    case 'internal':
      return fromApiError(toApiError(failure.error));
    default:
      return assertNever(failure, 'model failure');
  }
}

function openAITypeAndCode(code: ApiErrorCode): { type: string; code: string | null } {
  switch (code) {
    case ApiErrorCode.Unauthenticated:
      return { type: 'invalid_request_error', code: 'invalid_api_key' };
    case ApiErrorCode.Forbidden:
    case ApiErrorCode.EndUserRequired:
      return { type: 'invalid_request_error', code: 'insufficient_permissions' };
    case ApiErrorCode.NotFound:
    case ApiErrorCode.RouteNotFound:
      return { type: 'invalid_request_error', code: 'not_found' };
    case ApiErrorCode.MethodNotAllowed:
      return { type: 'invalid_request_error', code: 'method_not_allowed' };
    case ApiErrorCode.ValidationFailed:
    case ApiErrorCode.PayloadTooLarge:
    case ApiErrorCode.UnsupportedMediaType:
    case ApiErrorCode.HeadersTooLarge:
    case ApiErrorCode.RequestTimeout:
      return { type: 'invalid_request_error', code: null };
    case ApiErrorCode.Conflict:
    case ApiErrorCode.SessionClosed:
      return { type: 'invalid_request_error', code: 'conflict' };
    case ApiErrorCode.IdempotencyKeyReused:
      return { type: 'invalid_request_error', code: 'idempotency_key_reused' };
    case ApiErrorCode.RateLimited:
      return { type: 'rate_limit_error', code: 'rate_limit_exceeded' };
    case ApiErrorCode.UnknownModel:
      return { type: 'invalid_request_error', code: 'model_not_found' };
    case ApiErrorCode.ProviderNotConfigured:
    case ApiErrorCode.NotReady:
    case ApiErrorCode.UpstreamFailed:
    case ApiErrorCode.UpstreamTimeout:
    case ApiErrorCode.Internal:
      return { type: 'server_error', code: null };
    default:
      return assertNever(code, 'API error code');
  }
}

/**
 * An AgentDesk refusal (the guard's 401/403/429, Fastify's body errors) in OpenAI's shape, with
 * the status the rest of the API uses. Every 401 carries the same message, whatever the cause.
 */
export function fromApiError(error: ApiError): OpenAIErrorResponse {
  const { type, code } = openAITypeAndCode(error.code);
  const message = error.code === ApiErrorCode.Unauthenticated ? UNAUTHENTICATED_MESSAGE : error.message;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.allowedMethods !== undefined) headers['allow'] = error.allowedMethods.join(', ');
  return {
    status: httpStatusOf(error.code),
    body: body(message, type, null, code),
    ...(Object.keys(headers).length > 0 && { headers }),
  };
}

/** Anything thrown while serving an OpenAI-compatible route, as OpenAI's error answer. */
export function toOpenAIError(exception: unknown): OpenAIErrorResponse {
  if (exception instanceof OpenAICompatError) return exception.response;
  return fromModelFailure(classifyModelFailure(exception));
}

/** The AgentDesk error code an exception corresponds to, so error metrics keep one small label set. */
export function agentDeskCodeOf(exception: unknown): ApiErrorCode {
  if (exception instanceof OpenAICompatError) return ApiErrorCode.ValidationFailed;
  return modelFailureToApiError(classifyModelFailure(exception)).code;
}
