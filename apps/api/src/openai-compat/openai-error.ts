import { ProviderError, SchemaLoweringError } from '@agentdesk/providers';
import type { ZodError } from 'zod';
import { ModelRoutingError } from '../agent/model-routing/model-router';

/** OpenAI's error body, which every OpenAI-compatible client knows how to read. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface OpenAIErrorResponse {
  status: number;
  body: OpenAIErrorBody;
}

const body = (message: string, type: string, param: string | null = null, code: string | null = null): OpenAIErrorBody => ({
  error: { message, type, param, code },
});

/** Zod issues in OpenAI's wording: unknown fields are "Unrecognized request argument supplied". */
export function fromValidationError(error: ZodError): OpenAIErrorResponse {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return { status: 400, body: body(`Unrecognized request argument supplied: ${issue.keys.join(', ')}`, 'invalid_request_error') };
  }
  const param = issue?.path.length ? issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '') : null;
  return {
    status: 400,
    body: body(`Invalid value for '${param ?? 'body'}': ${issue?.message ?? 'invalid request'}`, 'invalid_request_error', param),
  };
}

/** Maps an upstream or routing failure to the status and body OpenAI clients expect. */
export function fromFailure(error: unknown): OpenAIErrorResponse {
  if (error instanceof ModelRoutingError) {
    return error.failure.kind === 'unknown-model'
      ? { status: 404, body: body(error.message, 'invalid_request_error', 'model', 'model_not_found') }
      : { status: 503, body: body(error.message, 'server_error', 'model', 'provider_not_configured') };
  }
  if (error instanceof SchemaLoweringError) {
    return { status: 400, body: body(error.message, 'invalid_request_error', 'response_format', 'invalid_schema') };
  }
  if (error instanceof ProviderError) {
    if (error.code === 'aborted') return { status: 499, body: body('The client closed the request', 'invalid_request_error') };
    // A provider's own 4xx (bad request, rate limit) is passed on; its outages become 502/504.
    const status =
      error.status !== undefined && error.status >= 400 && error.status < 500
        ? error.status
        : error.code === 'timeout'
          ? 504
          : 502;
    const type = status === 429 ? 'rate_limit_error' : status < 500 ? 'invalid_request_error' : 'upstream_error';
    return { status, body: body(`${error.provider}: ${error.message}`, type, null, error.code ?? null) };
  }
  // Anything else is a bug of ours: say so honestly, without internals.
  return { status: 500, body: body('The server failed unexpectedly; the error was logged', 'server_error') };
}
