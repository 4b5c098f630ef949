import type { Selectable } from 'kysely';
import type { ToolResultsTable } from '../database-schema';

/** A tool result's metadata, for listings (content can be megabytes). */
export interface ToolResultSummary {
  readonly id: string;
  readonly sessionId: string;
  readonly messageId: string | null;
  readonly toolCallId: string;
  /** Length in UTF-16 code units (JavaScript `string.length`). */
  readonly charCount: number;
  readonly createdAt: Date;
}

/** The full output of one tool call, kept even when the model only saw a truncated copy. */
export interface ToolResult extends ToolResultSummary {
  readonly content: string;
}

/** Maps a `tool_results` row without its content. */
export function toToolResultSummary(row: Omit<Selectable<ToolResultsTable>, 'content'>): ToolResultSummary {
  return {
    id: row.id,
    sessionId: row.session_id,
    messageId: row.message_id,
    toolCallId: row.tool_call_id,
    charCount: row.char_count,
    createdAt: new Date(row.created_at),
  };
}

/** Maps a full `tool_results` row. */
export function toToolResult(row: Selectable<ToolResultsTable>): ToolResult {
  return { ...toToolResultSummary(row), content: row.content };
}
