import { z } from 'zod';
import type { KnownFields } from './known-fields';
import { messageErrorJsonSchema } from './transcript-parts';

/**
 * Every reason AgentDesk itself gives for a failed message (the `code` of its `error`). A failure the
 * provider reported keeps the provider's own code (`rate_limit_exceeded`, `overloaded_error`…) with
 * `provider` set; {@link turnErrorCodeOf} reads any stored code as one of these.
 */
export const turnErrorCodes = [
  /** The session's model matches no route. */
  'unknown_model',
  /** The model's provider has no credentials on this server. */
  'provider_not_configured',
  /** The response schema cannot be expressed for the model's provider (no model was called). */
  'invalid_schema',
  /** The model answered, but not in the form asked for. */
  'invalid_model_output',
  /** The turn's tool scratchpad does not fit the model call's budget, even compressed. */
  'scratchpad_budget_exceeded',
  /** No answer in time (the provider's timeout, or the call's deadline). */
  'timeout',
  /** The client went away; the turn was stopped. */
  'client_disconnected',
  /** The provider failed: without a code of its own, and the class of every provider's code. */
  'provider_error',
  /** A tool threw: the turn ended. */
  'tool_failed',
  /** A tool reported an error in its result (on the tool message): the turn went on. */
  'tool_error',
  /** The model kept calling tools past the turn's limit. */
  'tool_loop_limit',
  /** The turn's server stopped or lost the session lease before the turn finished. */
  'turn_interrupted',
  /** An exception of our own (logged; the message is generic). */
  'internal_error',
] as const;

/** A reason AgentDesk gives for a failed message: a closed vocabulary, mapped with exhaustive switches. */
export type TurnErrorCode = (typeof turnErrorCodes)[number];

const ownCodes: ReadonlySet<string> = new Set(turnErrorCodes);

/** Whether `code` is one of AgentDesk's own (not a provider's). */
export function isTurnErrorCode(code: string): code is TurnErrorCode {
  return ownCodes.has(code);
}

/**
 * A message's error as this server writes it: one of its own codes, or a provider's failure (the
 * provider's code, with `provider` set). The console reads errors with the looser
 * `messageErrorJsonSchema`, so an older console still shows a newer server's errors.
 */
export const turnErrorJsonSchema = z.union([
  messageErrorJsonSchema.extend({ code: z.enum(turnErrorCodes) }),
  messageErrorJsonSchema.extend({ provider: z.string() }),
]);

/** Why a message (and its turn) failed: stored on the message, sent in the turn's `error` event and answer. */
export type TurnError = KnownFields<z.infer<typeof turnErrorJsonSchema>>;

/** The code of any stored turn error in the closed vocabulary: a provider's own code is a `provider_error`. */
export function turnErrorCodeOf(error: Pick<TurnError, 'code'>): TurnErrorCode {
  return isTurnErrorCode(error.code) ? error.code : 'provider_error';
}
