import { z } from 'zod';

/*
 * The parts of a message that `messageJsonSchema` carries as open JSON objects, read for display.
 * Each schema is loose (unknown fields pass) so an older console still reads a newer API: a part
 * that does not match is shown as raw JSON rather than hidden.
 */

/** A text part of `contentParts`. */
export const textPartJsonSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export type TextPartJson = z.infer<typeof textPartJsonSchema>;

/** One entry of an assistant message's `toolCalls`: `arguments` is the model's JSON text, unparsed. */
export const toolCallJsonSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCallJson = z.infer<typeof toolCallJsonSchema>;

/** The `error` of a failed message: a stable code and a message; provider failures add where from. */
export const messageErrorJsonSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  provider: z.string().optional(),
  status: z.number().optional(),
  requestId: z.string().optional(),
});
export type MessageErrorJson = z.infer<typeof messageErrorJsonSchema>;

/** One tool result the compressor cut, with the stored original's id when it can be paged. */
export const truncatedItemJsonSchema = z.looseObject({
  toolCallId: z.string(),
  toolName: z.string(),
  storedResultId: z.string().optional(),
  newest: z.boolean(),
  strategy: z.string(),
  originalCharacters: z.number(),
  keptCharacters: z.number(),
  omittedCharacters: z.number(),
  tokensBefore: z.number(),
  tokensBeforeExact: z.boolean(),
  tokensAfter: z.number(),
});
export type TruncatedItemJson = z.infer<typeof truncatedItemJsonSchema>;

/** One entry of `compressionEvents`: the scratchpad compressor's record (libs/compressor `CompressionEvent`). */
export const compressionEventJsonSchema = z.looseObject({
  type: z.literal('scratchpad-compression'),
  at: z.string(),
  method: z.enum(['none', 'truncation', 'summary']),
  language: z.string(),
  budgetTokens: z.number(),
  entriesBefore: z.number(),
  entriesAfter: z.number(),
  tokensBefore: z.number(),
  tokensBeforeExact: z.boolean(),
  tokensAfter: z.number(),
  newestTruncated: z.boolean(),
  olderEntries: z.enum(['none', 'kept', 'summarized', 'truncated']),
  summarizer: z.looseObject({ status: z.string(), error: z.string().optional() }),
  truncatedItems: z.array(truncatedItemJsonSchema),
  removedEntries: z.array(
    z.looseObject({ role: z.enum(['assistant', 'tool']), how: z.enum(['summarized', 'dropped']) }),
  ),
  durationMs: z.number(),
});
export type CompressionEventJson = z.infer<typeof compressionEventJsonSchema>;
