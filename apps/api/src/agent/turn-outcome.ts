import { ApiError, ApiErrorCode } from '../errors/api-error';
import type { MessageJson } from '@agentdesk/api-contract';
import { toMessageJson } from '../sessions/session-json';
import type { TurnResult } from './turn/agent-turn-runner';
import type { TurnError } from './turn/turn-events';

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
      ? last.contentParts.map((part) => (part['type'] === 'text' ? String(part['text'] ?? '') : '')).join('')
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
  const error = result.error ?? { code: 'unknown', message: 'The turn failed' };
  const recorded = `The turn ${result.turnId} was recorded as failed; your message is kept in the session.`;
  const message = error.message.replace(/[.\s]+$/, '');
  if (error.code === 'invalid_schema')
    return new ApiError(ApiErrorCode.ValidationFailed, `body.responseFormat.schema: ${message}. ${recorded}`);
  const where = error.provider ? `${error.provider}: ` : '';
  // A bug of ours is no upstream failure: 500, with the generic message of `toTurnError` (details are logged).
  const code =
    error.code === 'timeout'
      ? ApiErrorCode.UpstreamTimeout
      : error.code === 'internal_error'
        ? ApiErrorCode.Internal
        : ApiErrorCode.UpstreamFailed;
  return new ApiError(code, `${where}${message}. ${recorded}`);
}
