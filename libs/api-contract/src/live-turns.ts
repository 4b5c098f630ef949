import { z } from 'zod';
import { messageErrorJsonSchema, toolCallJsonSchema } from './transcript-parts';

/**
 * The first event of `GET /v1/admin/sessions/:id/live`: the stream carries what happens after the
 * stored message `afterSeq` (read the stored transcript up to it, then apply the events), and the
 * text the running turn's unfinished answers had streamed before the reader joined, when this
 * replica saw it (a reader joining mid-answer then misses nothing).
 */
export const liveSnapshotEventSchema = z.object({
  type: z.literal('snapshot'),
  sessionId: z.string(),
  afterSeq: z.number().int().nonnegative(),
  /** The running turn, when this replica knows of one. */
  turnId: z.string().nullable(),
  partialAnswers: z.array(z.object({ messageId: z.string(), text: z.string() })),
});

/** What happens in a session's running turn, as an authorized reader of the session sees it. */
export const liveTurnEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('turn-start'),
    turnId: z.string(),
    userMessageId: z.string(),
    model: z.string(),
  }),
  /** Streamed answer text; consecutive deltas of one message may arrive joined. */
  z.object({ type: z.literal('text-delta'), messageId: z.string(), text: z.string() }),
  z.object({ type: z.literal('tool-call'), messageId: z.string(), toolCall: toolCallJsonSchema }),
  z.object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    isError: z.boolean(),
    characters: z.number().int().nonnegative(),
    preview: z.string(),
  }),
  /** An assistant message was stored complete (its text and tool calls are in the transcript). */
  z.object({ type: z.literal('message-complete'), messageId: z.string() }),
  /** The turn ended: `complete`, or `failed` with the turn's error. Read the stored transcript again. */
  z.object({
    type: z.literal('turn-end'),
    turnId: z.string(),
    status: z.enum(['complete', 'failed']),
    error: messageErrorJsonSchema.optional(),
  }),
]);

/**
 * The stream's last event when this reader fell too far behind (it read slower than the turn
 * wrote): nothing is buffered without limit, the stream ends, and the reader reads the stored
 * transcript (and may subscribe again).
 */
export const liveDroppedEventSchema = z.object({
  type: z.literal('dropped'),
  reason: z.string(),
});

/** Every event of the live feed: the snapshot first, turn events, and `dropped` as a possible last. */
export const liveFeedEventSchema = z.union([
  liveSnapshotEventSchema,
  liveTurnEventSchema,
  liveDroppedEventSchema,
]);

export type LiveSnapshotEvent = z.infer<typeof liveSnapshotEventSchema>;
export type LiveTurnEvent = z.infer<typeof liveTurnEventSchema>;
export type LiveFeedEvent = z.infer<typeof liveFeedEventSchema>;
