import { z } from 'zod';

/** The longest search the API accepts (its first 16 distinct words are searched). */
export const MAX_SEARCH_QUERY_LENGTH = 1_000;

/** Where a searched word was found in a snippet: UTF-16 offsets, as JavaScript strings count. */
export const snippetHighlightJsonSchema = z.object({
  start: z.number().int().nonnegative(),
  length: z.number().int().positive(),
});
export type SnippetHighlightJson = z.infer<typeof snippetHighlightJsonSchema>;

/** One message found by `GET /v1/admin/search/messages`, with what it takes to link to it. */
export const messageSearchHitJsonSchema = z.object({
  messageId: z.string(),
  sessionId: z.string(),
  ownerUserId: z.string(),
  /** The session owner's display name (null: they have none). */
  ownerName: z.string().nullable().optional(),
  seq: z.number().int(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  createdAt: z.string(),
  /** The message text around the first word found (the whole text when short). */
  snippet: z.string(),
  /** Every place in `snippet` where a searched word (or a word it begins) was found, in order, not overlapping. */
  highlights: z.array(snippetHighlightJsonSchema),
});
export type MessageSearchHitJson = z.infer<typeof messageSearchHitJsonSchema>;

/** `GET /v1/admin/search/messages`: one page of messages found, and which words were searched. */
export const messageSearchPageJsonSchema = z.object({
  items: z.array(messageSearchHitJsonSchema),
  nextCursor: z.string().nullable(),
  /** The words searched for (lower-cased, each once); the last, of 3 or more letters, also finds longer words it begins. */
  words: z.array(z.string()),
  /** Words of the query past the first 16, left out of the search (a long query stays fast). */
  ignoredWords: z.array(z.string()),
});
export type MessageSearchPageJson = z.infer<typeof messageSearchPageJsonSchema>;
