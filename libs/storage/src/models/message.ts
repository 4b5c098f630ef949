import type { Selectable } from 'kysely';
import type {
  StoredCompressionEvent,
  StoredContentPart,
  StoredToolCall,
  TurnError,
} from '@agentdesk/api-contract';
import type { MessagesTable } from '../database-schema';
import { parseCompressionEvents, parseContentParts, parseToolCalls, parseTurnError } from './message-columns';
import type { TokenUsage } from './session';

/** Who a message is from. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** `pending` while a model call runs; `complete` or `failed` once it finished. */
export type MessageStatus = 'pending' | 'complete' | 'failed';

/**
 * One transcript entry. Content parts, tool calls, the error and compression events have the API
 * contract's shapes, checked as the row is read.
 */
export interface Message {
  readonly id: string;
  readonly sessionId: string;
  /** 1, 2, 3… per session, in append order, without gaps. */
  readonly seq: number;
  readonly role: MessageRole;
  readonly contentParts: readonly StoredContentPart[];
  readonly toolCalls: readonly StoredToolCall[] | null;
  readonly toolCallId: string | null;
  readonly usage: TokenUsage | null;
  readonly status: MessageStatus;
  /** Why the message failed (a turn's failure), or the error a tool reported in its result. */
  readonly error: TurnError | null;
  readonly model: string | null;
  readonly compressionEvents: readonly StoredCompressionEvent[] | null;
  readonly idempotencyKey: string | null;
  /**
   * Tokens the message costs the model, counted by the writer when the content was stored (the
   * API's tokenizer; storage keeps it verbatim). Null for rows written before it was recorded.
   */
  readonly tokenCount: number | null;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
  readonly createdAt: Date;
}

/** Maps a `messages` row. */
export function toMessage(row: Selectable<MessagesTable>): Message {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    role: row.role,
    contentParts: parseContentParts(row.content),
    toolCalls: parseToolCalls(row.tool_calls),
    toolCallId: row.tool_call_id,
    usage:
      row.input_tokens === null
        ? null
        : {
            input: row.input_tokens,
            output: row.output_tokens ?? 0,
            thinking: row.thinking_tokens ?? 0,
            cached: row.cached_tokens ?? 0,
          },
    status: row.status,
    error: parseTurnError(row.error),
    model: row.model,
    compressionEvents: parseCompressionEvents(row.compression_events),
    idempotencyKey: row.idempotency_key,
    tokenCount: row.token_count,
    startedAt: new Date(row.started_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
    createdAt: new Date(row.created_at),
  };
}
