import { ProviderError, SchemaLoweringError } from '@agentdesk/providers';
import type { UnstorableText } from '@agentdesk/storage';
import { z, type ZodError } from 'zod';
import { ModelRoutingError } from '../model-access/model-router';
import { ApiErrorCode, UNAUTHENTICATED_MESSAGE, type ApiError } from '../errors/api-error';
import { assertNever } from '../errors/assert-never';
import { httpStatusOf } from '../errors/http-status';
import { toApiError } from '../errors/to-api-error';
import { InvalidModelOutputError } from './json-answer';

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

/**
 * Zod issues in OpenAI's wording: unknown fields are "Unrecognized request argument supplied",
 * missing ones "Missing required parameter". One issue is reported, as OpenAI does: an unknown
 * field first (whatever else is wrong, the client sent something this API does not know).
 */
export function fromValidationError(error: ZodError): OpenAIErrorResponse {
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
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
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

/** Statuses of a provider's refusal that are the caller's to fix, so they are passed on as they are. */
const passedOnProviderStatuses = new Set([400, 404, 413, 422, 429]);

function fromProviderError(error: ProviderError): OpenAIErrorResponse {
  if (error.code === 'aborted')
    return { status: 499, body: body('The client closed the request', 'invalid_request_error') };
  // Retrying is done: the stack's single retry loop already ran against the provider.
  const headers: Record<string, string> = { 'x-should-retry': 'false' };
  if (error.retryAfterMs !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  const message = `${error.provider}: ${error.message}`;
  const code = error.code ?? null;
  if (error.status !== undefined && passedOnProviderStatuses.has(error.status)) {
    const type = error.status === 429 ? 'rate_limit_error' : 'invalid_request_error';
    return { status: error.status, body: body(message, type, null, code), headers };
  }
  if (error.status === 401 || error.status === 403) {
    // The provider refused this server's credentials, not the caller's key: a gateway failure.
    return {
      status: 502,
      body: body(
        `${error.provider} refused this server's provider credentials: ${error.message}`,
        'server_error',
        null,
        'upstream_authentication_failed',
      ),
      headers,
    };
  }
  if (error.code === 'timeout')
    return { status: 504, body: body(message, 'server_error', null, 'upstream_timeout'), headers };
  return { status: 502, body: body(message, 'server_error', null, code ?? 'upstream_error'), headers };
}

/** Maps an upstream, routing or schema failure to the status and body OpenAI clients expect. */
export function fromFailure(error: unknown): OpenAIErrorResponse | undefined {
  if (error instanceof ModelRoutingError) {
    return error.failure.kind === 'unknown-model'
      ? { status: 404, body: body(error.message, 'invalid_request_error', 'model', 'model_not_found') }
      : { status: 503, body: body(error.message, 'server_error', 'model', 'provider_not_configured') };
  }
  if (error instanceof SchemaLoweringError) {
    return {
      status: 400,
      body: body(error.message, 'invalid_request_error', 'response_format', 'invalid_schema'),
    };
  }
  if (error instanceof ProviderError) return fromProviderError(error);
  if (error instanceof InvalidModelOutputError) {
    return { status: 502, body: body(error.message, 'server_error', null, 'invalid_model_output') };
  }
  return undefined;
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
  return fromFailure(exception) ?? fromApiError(toApiError(exception));
}

/** The AgentDesk error code an exception corresponds to, so error metrics keep one small label set. */
export function agentDeskCodeOf(exception: unknown): ApiErrorCode {
  if (exception instanceof OpenAICompatError || exception instanceof SchemaLoweringError)
    return ApiErrorCode.ValidationFailed;
  if (exception instanceof ModelRoutingError) {
    return exception.failure.kind === 'unknown-model'
      ? ApiErrorCode.UnknownModel
      : ApiErrorCode.ProviderNotConfigured;
  }
  if (exception instanceof ProviderError) {
    return exception.code === 'timeout' ? ApiErrorCode.UpstreamTimeout : ApiErrorCode.UpstreamFailed;
  }
  if (exception instanceof InvalidModelOutputError) return ApiErrorCode.UpstreamFailed;
  return toApiError(exception).code;
}
