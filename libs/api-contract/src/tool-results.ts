import { z } from 'zod';

/** Largest page of a stored tool result the API serves, in characters (UTF-16 code units). */
export const MAX_TOOL_RESULT_PAGE_CHARACTERS = 100_000;
/** The page size when the caller names none. */
export const DEFAULT_TOOL_RESULT_PAGE_CHARACTERS = 20_000;

/**
 * `GET /v1/admin/sessions/:id/tool-results/:toolCallId`: one page of the full output of a tool call,
 * as the tool returned it (the transcript and the model may only have seen a truncated copy).
 */
export const toolResultPageJsonSchema = z.object({
  sessionId: z.string(),
  toolCallId: z.string(),
  /** Where this page starts. */
  offset: z.number(),
  content: z.string(),
  /** Length of the whole stored result. */
  totalCharacters: z.number(),
  /** Offset of the next page, or `null` on the last one. */
  nextOffset: z.number().nullable(),
  /** Offset of the page before this one (`limit` characters back), or `null` on the first. */
  previousOffset: z.number().nullable(),
  createdAt: z.string(),
});
export type ToolResultPageJson = z.infer<typeof toolResultPageJsonSchema>;
