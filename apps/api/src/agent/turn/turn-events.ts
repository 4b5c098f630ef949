import type { TurnError } from '@agentdesk/api-contract';
import type { CompressionEvent } from '@agentdesk/compressor';
import type { ToolCall, Usage } from '@agentdesk/providers';

/**
 * The events of one agent turn, in order, as streamed to SSE clients (noun-verb names).
 * `turn-end` or `error` is always last.
 */
export type TurnEvent =
  | { type: 'turn-start'; turnId: string; sessionId: string; userMessageId: string; model: string }
  | { type: 'text-delta'; messageId: string; text: string }
  | { type: 'tool-call'; messageId: string; toolCall: ToolCall }
  | {
      type: 'tool-result';
      toolCallId: string;
      toolName: string;
      isError: boolean;
      characters: number;
      preview: string;
    }
  | { type: 'compression'; event: CompressionEvent }
  | { type: 'usage'; messageId: string; usage: Usage }
  | { type: 'turn-end'; turnId: string; status: 'complete'; messageIds: string[] }
  | { type: 'error'; turnId: string; error: TurnError; messageIds: string[] };

/** Receives the events of a running turn (an SSE writer, or nothing for JSON responses). */
export type TurnEventSink = (event: TurnEvent) => void;
