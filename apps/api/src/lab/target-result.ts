import type {
  ChatWarning,
  JsonValidation,
  ProviderName,
  SchemaChange,
  SchemaTarget,
  Usage,
} from '@agentdesk/providers';

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
  /** Wall time of the target, retries included. */
  readonly latencyMs: number;
  /** Provider calls made; null when unknown (the call failed) or none was made. */
  readonly attempts: number | null;
  readonly error?: TargetError;
}
