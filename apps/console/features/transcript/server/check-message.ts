import {
  compressionEventJsonSchema,
  messageErrorJsonSchema,
  textPartJsonSchema,
  toolCallJsonSchema,
  type MessageJson,
  type PageJson,
} from '@agentdesk/api-contract';
import type { CheckedMessage } from '../transcript-model';

function readableIndices(
  values: readonly unknown[] | null,
  schema: { safeParse(value: unknown): { success: boolean } },
): number[] {
  const readable: number[] = [];
  (values ?? []).forEach((value, index) => {
    if (schema.safeParse(value).success) readable.push(index);
  });
  return readable;
}

/**
 * Checks a message's open JSON parts (text, tool calls, compression events, error) against the
 * shared contract. Runs on the server — for the page, the transcript's route handler and the
 * exports — so the browser takes the readable parts typed and needs no schema library. The part
 * schemas are loose and transform nothing, so a readable part is exactly the value sent.
 */
export function checkMessage(message: MessageJson): CheckedMessage {
  return {
    message,
    reading: {
      textParts: readableIndices(message.contentParts, textPartJsonSchema),
      toolCalls: readableIndices(message.toolCalls, toolCallJsonSchema),
      compressionEvents: readableIndices(message.compressionEvents, compressionEventJsonSchema),
      errorReadable: message.error !== null && messageErrorJsonSchema.safeParse(message.error).success,
    },
  };
}

/** A keyset page of messages, each checked. */
export function checkMessagesOf(page: PageJson<MessageJson>): PageJson<CheckedMessage> {
  return { ...page, items: page.items.map(checkMessage) };
}
