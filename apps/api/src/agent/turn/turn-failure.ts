import { ScratchpadBudgetError } from '@agentdesk/compressor';
import { ProviderError } from '@agentdesk/providers';
import type { TurnError } from './turn-events';

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

/** Describes a failure for the transcript and the client, without internals of our own code. */
export function toTurnError(error: unknown, signal: AbortSignal): TurnError {
  if (error instanceof TurnFailure) return error.turnError;
  if (signal.aborted) {
    // Aborted on purpose with a reason to record (the turn lost its lease), or by the client.
    if (signal.reason instanceof TurnFailure) return signal.reason.turnError;
    return { code: 'client_disconnected', message: 'The client disconnected; the turn was stopped' };
  }
  if (error instanceof ProviderError) {
    return {
      code: error.code ?? 'provider_error',
      message: error.message,
      provider: error.provider,
      ...(error.status !== undefined && { status: error.status }),
      ...(error.requestId !== undefined && { requestId: error.requestId }),
    };
  }
  if (error instanceof ScratchpadBudgetError)
    return { code: 'scratchpad_budget_exceeded', message: error.message };
  return { code: 'internal_error', message: 'The turn failed unexpectedly; the error was logged' };
}
