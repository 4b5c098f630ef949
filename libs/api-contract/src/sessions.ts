import { z } from 'zod';
import { costJsonFields } from './cost';
import { pageJsonSchema } from './pages';
import { tokenUsageJsonSchema } from './usage';

/** A session as the API returns it. */
export const sessionJsonSchema = z.object({
  id: z.string(),
  ownerUserId: z.string(),
  /** The owner's display name, in the admin routes' answers (null: the owner has none). */
  ownerName: z.string().nullable().optional(),
  portalId: z.string().nullable(),
  label: z.string(),
  status: z.enum(['open', 'closed']),
  model: z.string().nullable(),
  systemPrompt: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  tokenTotals: tokenUsageJsonSchema,
  /** What the session's answers cost (null when one had no price), computed as each was written. */
  ...costJsonFields,
  messageCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionJson = z.infer<typeof sessionJsonSchema>;

/** A transcript message as the API returns it. */
export const messageJsonSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  seq: z.number(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  contentParts: z.array(z.record(z.string(), z.unknown())),
  toolCalls: z.array(z.record(z.string(), z.unknown())).nullable(),
  toolCallId: z.string().nullable(),
  usage: tokenUsageJsonSchema.nullable(),
  status: z.enum(['pending', 'complete', 'failed']),
  error: z.record(z.string(), z.unknown()).nullable(),
  model: z.string().nullable(),
  /** What the scratchpad compressor did before this message's model call (truncations, summaries). */
  compressionEvents: z.array(z.record(z.string(), z.unknown())).nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MessageJson = z.infer<typeof messageJsonSchema>;
export type MessageRole = MessageJson['role'];

/** `GET /v1/admin/sessions/:id`: the session and the first page of its transcript. */
export const sessionWithMessagesJsonSchema = z.object({
  session: sessionJsonSchema,
  messages: pageJsonSchema(messageJsonSchema),
});
export type SessionWithMessagesJson = z.infer<typeof sessionWithMessagesJsonSchema>;
