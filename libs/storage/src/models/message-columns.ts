import {
  compressionEventJsonSchema,
  contentPartJsonSchema,
  toolCallJsonSchema,
  turnErrorJsonSchema,
  type StoredCompressionEvent,
  type StoredContentPart,
  type StoredToolCall,
  type TurnError,
} from '@agentdesk/api-contract';
import { z } from 'zod';

// The JSON columns of `messages`, typed by the API contract's schemas: parsed once here, as rows are
// read, so nothing above storage casts them. The schemas are loose: fields they do not name are kept.

const contentPartsSchema = z.array(contentPartJsonSchema);
const toolCallsSchema = z.array(toolCallJsonSchema);
const compressionEventsSchema = z.array(compressionEventJsonSchema);

/** Parses one JSON column against its schema; a row that does not match is a bug or a damaged row. */
function parseColumn<Schema extends z.ZodType>(
  schema: Schema,
  text: string,
  column: string,
): z.output<Schema> {
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`The stored ${column} does not match its schema: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** `messages.content`. */
export function parseContentParts(text: string): readonly StoredContentPart[] {
  return parseColumn(contentPartsSchema, text, 'messages.content');
}

/** `messages.tool_calls`. */
export function parseToolCalls(text: string | null): readonly StoredToolCall[] | null {
  return text === null ? null : parseColumn(toolCallsSchema, text, 'messages.tool_calls');
}

/** `messages.error`. */
export function parseTurnError(text: string | null): TurnError | null {
  return text === null ? null : parseColumn(turnErrorJsonSchema, text, 'messages.error');
}

/** `messages.compression_events`. */
export function parseCompressionEvents(text: string | null): readonly StoredCompressionEvent[] | null {
  return text === null ? null : parseColumn(compressionEventsSchema, text, 'messages.compression_events');
}

/**
 * Serializes a typed value for a JSON column (always text: `pg` would turn a JS array into a SQL
 * array); `null` and `undefined` stay SQL NULL.
 */
export function toColumnText(value: object): string;
export function toColumnText(value: object | null | undefined): string | null;
export function toColumnText(value: object | null | undefined): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
