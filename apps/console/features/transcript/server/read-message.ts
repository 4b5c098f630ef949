import {
  compressionEventJsonSchema,
  messageErrorJsonSchema,
  textPartJsonSchema,
  toolCallJsonSchema,
  type MessageJson,
  type PageJson,
} from '@agentdesk/api-contract';
import type { ReadMessage } from '../transcript-model';

function readEach<Item>(
  values: readonly unknown[] | null,
  schema: { safeParse(value: unknown): { success: true; data: Item } | { success: false } },
): { read: Item[]; unreadable: unknown[] } {
  const read: Item[] = [];
  const unreadable: unknown[] = [];
  for (const value of values ?? []) {
    const parsed = schema.safeParse(value);
    if (parsed.success) read.push(parsed.data);
    else unreadable.push(value);
  }
  return { read, unreadable };
}

/**
 * Reads a message's open JSON parts (text, tool calls, compression events, error) through the
 * shared contract. Runs on the server — for the page, the transcript's route handler and the
 * exports — so the browser receives them typed and needs no schema library.
 */
export function readMessage(message: MessageJson): ReadMessage {
  const texts = readEach(message.contentParts, textPartJsonSchema);
  const calls = readEach(message.toolCalls, toolCallJsonSchema);
  const events = readEach(message.compressionEvents, compressionEventJsonSchema);
  const error = message.error === null ? undefined : messageErrorJsonSchema.safeParse(message.error);
  return {
    message,
    text: texts.read.map((part) => part.text).join('\n'),
    otherParts: texts.unreadable,
    toolCalls: calls.read,
    unreadableToolCalls: calls.unreadable,
    compressionEvents: events.read,
    unreadableCompressionEvents: events.unreadable,
    error:
      error === undefined
        ? undefined
        : error.success
          ? error.data
          : { code: 'unknown', message: JSON.stringify(message.error) },
  };
}

/** A keyset page of messages, each read. */
export function readMessagesOf(page: PageJson<MessageJson>): PageJson<ReadMessage> {
  return { ...page, items: page.items.map(readMessage) };
}
