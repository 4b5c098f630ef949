import { z } from 'zod';
import type { KnownFields } from './known-fields';

/*
 * The parts of a message that `messageJsonSchema` carries as open JSON objects, read for display.
 * Each schema is loose (unknown fields pass) so an older console still reads a newer API: a part
 * that does not match is shown as raw JSON rather than hidden.
 */

/** A text part of `contentParts`. */
export const textPartJsonSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export type TextPartJson = z.infer<typeof textPartJsonSchema>;

/** An image part of a user's message: inline base64 data, or a URL. */
export const imagePartJsonSchema = z.union([
  z.looseObject({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal('image'), url: z.string(), mediaType: z.string().optional() }),
]);
export type ImagePartJson = z.infer<typeof imagePartJsonSchema>;

/** One entry of a message's `contentParts`: text (every role), or an image (a user's message). */
export const contentPartJsonSchema = z.union([textPartJsonSchema, imagePartJsonSchema]);
export type ContentPartJson = z.infer<typeof contentPartJsonSchema>;

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

/** A content part as the transcript stores it (what a writer supplies; see {@link KnownFields}). */
export type StoredContentPart = KnownFields<ContentPartJson>;

/** A tool call as the transcript stores it on the assistant message that made it. */
export type StoredToolCall = KnownFields<ToolCallJson>;

/** A compression event as the transcript stores it on the message whose model call it preceded. */
export type StoredCompressionEvent = KnownFields<CompressionEventJson>;
