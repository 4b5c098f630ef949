import { ScratchpadBudgetError } from '@agentdesk/compressor';
import { ProviderError, SchemaLoweringError, type ProviderName } from '@agentdesk/providers';
import { ModelCallTimeout } from './call-deadline';
import { InvalidModelOutputError } from './invalid-model-output-error';
import { ModelRoutingError } from './model-router';

/** What the provider said about a failed call (only its own fields: the SDK response stays behind). */
export interface UpstreamDetails {
  readonly provider: ProviderName;
  /** HTTP status; absent for connection failures, timeouts and errors inside a stream. */
  readonly status: number | undefined;
  /** The provider's error code (`rate_limit_exceeded`, `overloaded_error`…) or ours (`timeout`, `network_error`…). */
  readonly code: string | undefined;
  readonly message: string;
  readonly requestId: string | undefined;
  /** The wait the provider asked for before a retry. */
  readonly retryAfterMs: number | undefined;
  /** Calls made by the one retry loop before it gave up. */
  readonly attempts: number;
  /** The provider-native request body that failed, for debugging (no credentials). */
  readonly request: unknown;
}

/**
 * Why a model call produced no answer — the one failure vocabulary of the agent turn,
 * `/v1/chat/completions` and the structured-output lab. Each surface maps every kind exhaustively
 * (a `switch` ending in `assertNever`), so a new kind does not compile until each decides its answer.
 */
export type ModelFailure =
  /** The model name matches no route and no built-in prefix. */
  | { readonly kind: 'unknown-model'; readonly message: string; readonly model: string }
  /** The model's provider has no credentials on this server. */
  | {
      readonly kind: 'provider-not-configured';
      readonly message: string;
      readonly model: string;
      readonly provider: ProviderName;
      /** The environment variable that would configure it. */
      readonly variable: string;
    }
  /** The response schema cannot be expressed for the provider (found before any call). */
  | {
      readonly kind: 'invalid-schema';
      readonly message: string;
      readonly code: string;
      /** JSON pointer into the caller's schema. */
      readonly pointer: string;
    }
  /** The provider refused the request as invalid (400, 404, 413, 422): the caller's to fix. */
  | { readonly kind: 'invalid-request'; readonly message: string; readonly upstream: UpstreamDetails }
  /** The provider rate-limited this server (429); `upstream.retryAfterMs` says how long to wait. */
  | { readonly kind: 'rate-limited'; readonly message: string; readonly upstream: UpstreamDetails }
  /** The provider refused this server's credentials (401, 403): a gateway problem, not the caller's. */
  | { readonly kind: 'authentication'; readonly message: string; readonly upstream: UpstreamDetails }
  /** No answer in time: the provider's per-request timeout (`upstream`) or the whole call's deadline. */
  | { readonly kind: 'timeout'; readonly message: string; readonly upstream?: UpstreamDetails }
  /** The provider failed or could not be reached (5xx, 408, 409, network, unreadable answer). */
  | { readonly kind: 'upstream-unavailable'; readonly message: string; readonly upstream: UpstreamDetails }
  /** The model answered, but not in the form asked for (e.g. prose for a JSON format). */
  | { readonly kind: 'output-invalid'; readonly message: string }
  /** The turn's tool scratchpad cannot fit the model call's budget even when compressed. */
  | { readonly kind: 'context-budget-exceeded'; readonly message: string }
  /** The call was cancelled (the client went away) before it answered. */
  | { readonly kind: 'cancelled'; readonly message: string; readonly upstream?: UpstreamDetails }
  /**
   * Not a model failure (our own bug, storage, validation): each surface answers it its usual way
   * and logs it; `error` is kept for that, never sent.
   */
  | { readonly kind: 'internal'; readonly message: string; readonly error: unknown };

export type ModelFailureKind = ModelFailure['kind'];

/** Every kind, for tests and documentation. */
export const modelFailureKinds = [
  'unknown-model',
  'provider-not-configured',
  'invalid-schema',
  'invalid-request',
  'rate-limited',
  'authentication',
  'timeout',
  'upstream-unavailable',
  'output-invalid',
  'context-budget-exceeded',
  'cancelled',
  'internal',
] as const satisfies readonly ModelFailureKind[];

/** Provider statuses that are the caller's to fix, so every surface passes them on as refusals. */
const invalidRequestStatuses = new Set([400, 404, 413, 422]);

const internalMessage = 'The call failed unexpectedly; the error was logged';

function upstreamOf(error: ProviderError): UpstreamDetails {
  return {
    provider: error.provider,
    status: error.status,
    // An empty code says nothing: every surface then uses its own fallback.
    code: error.code || undefined,
    message: error.message,
    requestId: error.requestId,
    retryAfterMs: error.retryAfterMs,
    attempts: error.attempts,
    request: error.request,
  };
}

function classifyProviderError(error: ProviderError): ModelFailure {
  const upstream = upstreamOf(error);
  const message = error.message;
  if (error.code === 'aborted') return { kind: 'cancelled', message, upstream };
  if (error.status !== undefined && invalidRequestStatuses.has(error.status))
    return { kind: 'invalid-request', message, upstream };
  if (error.status === 429) return { kind: 'rate-limited', message, upstream };
  if (error.status === 401 || error.status === 403) return { kind: 'authentication', message, upstream };
  if (error.code === 'timeout') return { kind: 'timeout', message, upstream };
  return { kind: 'upstream-unavailable', message, upstream };
}

/**
 * Classifies anything a model call threw into one `ModelFailure`. With the call's `signal`: a
 * call aborted by its deadline timed out, and one aborted otherwise was cancelled, whatever the
 * SDK threw on the way out.
 */
export function classifyModelFailure(error: unknown, signal?: AbortSignal): ModelFailure {
  if (error instanceof ModelCallTimeout) return { kind: 'timeout', message: error.message };
  if (signal?.aborted) {
    if (signal.reason instanceof ModelCallTimeout) return { kind: 'timeout', message: signal.reason.message };
    // Whatever the SDK threw on the way out is a consequence of the abort, not the provider's answer.
    return { kind: 'cancelled', message: 'The client disconnected; the call was stopped' };
  }
  if (error instanceof ProviderError) return classifyProviderError(error);
  if (error instanceof ModelRoutingError) {
    const { failure } = error;
    return failure.kind === 'unknown-model'
      ? { kind: 'unknown-model', message: error.message, model: failure.model }
      : {
          kind: 'provider-not-configured',
          message: error.message,
          model: failure.model,
          provider: failure.provider,
          variable: failure.variable,
        };
  }
  if (error instanceof SchemaLoweringError)
    return { kind: 'invalid-schema', message: error.message, code: error.code, pointer: error.pointer };
  if (error instanceof InvalidModelOutputError) return { kind: 'output-invalid', message: error.message };
  if (error instanceof ScratchpadBudgetError)
    return { kind: 'context-budget-exceeded', message: error.message };
  return { kind: 'internal', message: internalMessage, error };
}
