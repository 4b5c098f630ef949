import { z } from 'zod';
import type { Message, Session } from '@agentdesk/storage';

const tokenUsageSchema = z.object({
  input: z.number(),
  output: z.number(),
  thinking: z.number(),
  cached: z.number(),
});

/** A session as the API returns it. */
export const sessionJsonSchema = z.object({
  id: z.string(),
  ownerUserId: z.string(),
  portalId: z.string().nullable(),
  label: z.string(),
  status: z.enum(['open', 'closed']),
  model: z.string().nullable(),
  systemPrompt: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  tokenTotals: tokenUsageSchema,
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
  usage: tokenUsageSchema.nullable(),
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

/** A page of items: pass `nextCursor` as `cursor` to read the next one (null on the last page). */
export function pageJsonSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export function toSessionJson(session: Session): SessionJson {
  return {
    id: session.id,
    ownerUserId: session.ownerUserId,
    portalId: session.portalId,
    label: session.label,
    status: session.status,
    model: session.model,
    systemPrompt: session.systemPrompt,
    metadata: session.metadata,
    tokenTotals: session.tokenTotals,
    messageCount: session.messageCount,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}

export function toMessageJson(message: Message): MessageJson {
  return {
    id: message.id,
    sessionId: message.sessionId,
    seq: message.seq,
    role: message.role,
    contentParts: [...message.contentParts],
    toolCalls: message.toolCalls === null ? null : [...message.toolCalls],
    toolCallId: message.toolCallId,
    usage: message.usage,
    status: message.status,
    error: message.error === null ? null : { ...message.error },
    model: message.model,
    compressionEvents: message.compressionEvents === null ? null : [...message.compressionEvents],
    startedAt: message.startedAt.toISOString(),
    finishedAt: message.finishedAt === null ? null : message.finishedAt.toISOString(),
    createdAt: message.createdAt.toISOString(),
  };
}
