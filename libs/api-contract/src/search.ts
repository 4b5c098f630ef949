import { z } from 'zod';

/** The longest search the API accepts. */
export const MAX_SEARCH_QUERY_LENGTH = 200;

/** One message found by `GET /v1/admin/search/messages`, with what it takes to link to it. */
export const messageSearchHitJsonSchema = z.object({
  messageId: z.string(),
  sessionId: z.string(),
  ownerUserId: z.string(),
  seq: z.number().int(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  createdAt: z.string(),
  /** The message text around the first word found (the whole text when short). */
  snippet: z.string(),
});
export type MessageSearchHitJson = z.infer<typeof messageSearchHitJsonSchema>;
