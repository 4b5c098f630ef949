import { assertNever } from '../../errors/assert-never';
import {
  classifyModelFailure,
  type ModelFailure,
  type UpstreamDetails,
} from '../../model-access/model-failure';
import type { TurnError } from '@agentdesk/api-contract';

/** A turn that cannot go on: carries the error recorded on the assistant message. */
export class TurnFailure extends Error {
  override readonly name = 'TurnFailure';
  constructor(
    readonly turnError: TurnError,
    options?: { cause?: unknown },
  ) {
    super(turnError.message, options);
  }
}

/** The provider's own fields, as stored on the failed message (never the SDK's response). */
function providerTurnError(upstream: UpstreamDetails): TurnError {
  return {
    code: upstream.code ?? 'provider_error',
    message: upstream.message,
    provider: upstream.provider,
    ...(upstream.status !== undefined && { status: upstream.status }),
    ...(upstream.requestId !== undefined && { requestId: upstream.requestId }),
  };
}

/** A model failure as the turn's stored error. Exhaustive over the kinds. */
export function turnErrorOf(failure: ModelFailure): TurnError {
  switch (failure.kind) {
    case 'unknown-model':
      return { code: 'unknown_model', message: failure.message };
    case 'provider-not-configured':
      return { code: 'provider_not_configured', message: failure.message, provider: failure.provider };
    case 'invalid-schema':
      return { code: 'invalid_schema', message: failure.message };
    case 'invalid-request':
    case 'rate-limited':
    case 'authentication':
    case 'upstream-unavailable':
      return providerTurnError(failure.upstream);
    case 'timeout':
      return failure.upstream
        ? providerTurnError(failure.upstream)
        : { code: 'timeout', message: failure.message };
    case 'cancelled':
      return failure.upstream
        ? providerTurnError(failure.upstream)
        : { code: 'client_disconnected', message: 'The client disconnected; the turn was stopped' };
    case 'output-invalid':
      return { code: 'invalid_model_output', message: failure.message };
    case 'context-budget-exceeded':
      return { code: 'scratchpad_budget_exceeded', message: failure.message };
    case 'internal':
      return { code: 'internal_error', message: 'The turn failed unexpectedly; the error was logged' };
    default:
      return assertNever(failure, 'model failure');
  }
}

/** Describes a failure for the transcript and the client, without internals of our own code. */
export function toTurnError(error: unknown, signal: AbortSignal): TurnError {
  if (error instanceof TurnFailure) return error.turnError;
  // Aborted on purpose with a reason to record (the turn lost its lease).
  if (signal.aborted && signal.reason instanceof TurnFailure) return signal.reason.turnError;
  return turnErrorOf(classifyModelFailure(error, signal));
}
