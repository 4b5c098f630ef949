import type {
  ChatWarning,
  JsonValidation,
  ProviderName,
  SchemaChange,
  SchemaTarget,
  Usage,
} from '@agentdesk/providers';
import { assertNever } from '../../errors/assert-never';
import type { ModelFailure, UpstreamDetails } from '../../model-access/model-failure';

/** Where a target failed: before any call (routing, schema lowering) or during it. */
export type TargetErrorKind = 'routing' | 'schema-lowering' | 'provider' | 'timeout' | 'internal';

/** Why a target produced no answer. */
export interface TargetError {
  readonly kind: TargetErrorKind;
  /** `unknown-model`, `recursive-schema`, the provider's error code, `timeout`… */
  readonly code: string;
  readonly message: string;
  /** Schema lowering: JSON pointer into the caller's schema. */
  readonly pointer?: string;
  /** Provider errors: HTTP status (absent for connection failures). */
  readonly status?: number;
  readonly requestId?: string;
}

/**
 * What one target did with the run's schema and prompt. Present whether or not the call
 * succeeded, so the console can compare targets side by side; `error` says why one failed.
 */
export interface TargetResult {
  readonly model: string;
  /** Null when the model matched no provider. */
  readonly provider: ProviderName | null;
  readonly status: 'ok' | 'error';
  /** The dialect the schema was lowered to; null when it was sent as given (OpenAI, non-strict). */
  readonly schemaTarget: SchemaTarget | null;
  /** The schema the provider was sent (or would have been sent); null when it could not be built. */
  readonly loweredSchema: unknown;
  /** What lowering changed, each with a pointer into the caller's schema. */
  readonly changes: readonly SchemaChange[];
  readonly warnings: readonly ChatWarning[];
  /** The provider-native request body sent (bodies carry no credentials); null when no call succeeded. */
  readonly request: unknown;
  /** The model's text answer, unparsed. */
  readonly rawOutput: string | null;
  /** The answer parsed and mapped back to the caller's shape; null when there is none or it did not parse. */
  readonly json: unknown;
  /** The answer checked against the caller's ORIGINAL schema. */
  readonly validation: JsonValidation | null;
  readonly finishReason: string | null;
  readonly usage: Usage | null;
  /** Micro-dollars the call cost (set when the run is stored); null when the model has no price. */
  readonly costMicros?: number | null;
  /** Wall time of the target, retries included. */
  readonly latencyMs: number;
  /** Provider calls made; null when unknown (the call failed) or none was made. */
  readonly attempts: number | null;
  readonly error?: TargetError;
}

/** Only the provider's own fields: the failure's cause holds the SDK's response, headers included. */
function providerTargetError(upstream: UpstreamDetails): TargetError {
  return {
    kind: 'provider',
    code: upstream.code ?? 'provider_error',
    message: upstream.message,
    ...(upstream.status !== undefined && { status: upstream.status }),
    ...(upstream.requestId !== undefined && { requestId: upstream.requestId }),
  };
}

/** A model failure as the lab's per-target error. Exhaustive over the kinds. */
export function toTargetError(failure: ModelFailure): TargetError {
  switch (failure.kind) {
    case 'unknown-model':
    case 'provider-not-configured':
      return { kind: 'routing', code: failure.kind, message: failure.message };
    case 'invalid-schema':
      return {
        kind: 'schema-lowering',
        code: failure.code,
        message: failure.message,
        pointer: failure.pointer,
      };
    case 'invalid-request':
    case 'rate-limited':
    case 'authentication':
    case 'upstream-unavailable':
      return providerTargetError(failure.upstream);
    case 'timeout':
      return failure.upstream
        ? providerTargetError(failure.upstream)
        : { kind: 'timeout', code: 'timeout', message: failure.message };
    case 'cancelled':
      return failure.upstream
        ? providerTargetError(failure.upstream)
        : { kind: 'internal', code: 'cancelled', message: failure.message };
    case 'output-invalid':
      return { kind: 'provider', code: 'invalid_model_output', message: failure.message };
    case 'context-budget-exceeded':
      return { kind: 'internal', code: 'context_budget_exceeded', message: failure.message };
    case 'internal':
      return {
        kind: 'internal',
        code: 'internal_error',
        message: 'The target failed unexpectedly; the error was logged',
      };
    default:
      return assertNever(failure, 'model failure');
  }
}
