import { ApiError, ApiErrorCode } from '../errors/api-error';
import { turnErrorCodeOf, type MessageJson, type TurnError } from '@agentdesk/api-contract';
import { assertNever } from '../errors/assert-never';
import { toMessageJson } from '../shared/sessions/session-json';
import type { TurnResult } from './turn/turn-types';

/** A finished turn as the JSON answer of `POST /v1/sessions/:id/messages`. */
export interface TurnJson {
  turnId: string;
  status: 'complete' | 'failed';
  replayed: boolean;
  /** The user's message first, then every assistant and tool message of the turn. */
  messages: MessageJson[];
  /** The final answer's text. */
  text: string;
  json?: unknown;
  validation?: TurnResult['validation'];
  error?: TurnError;
}

export function toTurnJson(result: TurnResult): TurnJson {
  const last = result.messages.at(-1);
  const text =
    last?.role === 'assistant'
      ? last.contentParts.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : '';
  return {
    turnId: result.turnId,
    status: result.status,
    replayed: result.replayed,
    messages: result.messages.map(toMessageJson),
    text,
    ...(result.json !== undefined && { json: result.json }),
    ...(result.validation && { validation: result.validation }),
    ...(result.error && { error: result.error }),
  };
}

/**
 * A failed turn is recorded (the user's message and the failure are in the transcript); the HTTP
 * answer says what failed: 400 for a response schema the session's model cannot take (the
 * caller's to fix; no model was called), 504 for a timeout, 502 for anything else a dependency
 * did, 500 for an exception of our own.
 */
export function failedTurnError(result: TurnResult): ApiError {
  const recorded = `The turn ${result.turnId} was recorded as failed; your message is kept in the session.`;
  const { error } = result;
  if (error === undefined) return new ApiError(ApiErrorCode.UpstreamFailed, `The turn failed. ${recorded}`);
  const message = error.message.replace(/[.\s]+$/, '');
  const failed = (code: ApiErrorCode): ApiError =>
    new ApiError(code, `${error.provider ? `${error.provider}: ` : ''}${message}. ${recorded}`);
  const code = turnErrorCodeOf(error);
  switch (code) {
    case 'invalid_schema':
      return new ApiError(
        ApiErrorCode.ValidationFailed,
        `body.responseFormat.schema: ${message}. ${recorded}`,
      );
    case 'timeout':
      return failed(ApiErrorCode.UpstreamTimeout);
    // A bug of ours is no upstream failure: 500, with the generic message of `toTurnError` (details are logged).
    case 'internal_error':
      return failed(ApiErrorCode.Internal);
    case 'unknown_model':
    case 'provider_not_configured':
    case 'invalid_model_output':
    case 'scratchpad_budget_exceeded':
    case 'client_disconnected':
    case 'provider_error':
    case 'tool_failed':
    case 'tool_error':
    case 'tool_loop_limit':
    case 'turn_interrupted':
      return failed(ApiErrorCode.UpstreamFailed);
    default:
      return assertNever(code, 'turn error code');
  }
}
