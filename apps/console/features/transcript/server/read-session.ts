import {
  pageJsonSchema,
  messageJsonSchema,
  sessionWithMessagesJsonSchema,
  toolResultPageJsonSchema,
  type MessageJson,
  type PageJson,
  type SessionJson,
  type SessionWithMessagesJson,
  type ToolResultPageJson,
} from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';

/** The API's largest transcript page. */
export const MESSAGE_PAGE_SIZE = 500;
/** Characters of a stored tool result per page on screen: a long read stays light for the browser. */
export const TOOL_RESULT_PAGE_CHARACTERS = 10_000;
/** An export reads at most this many messages; a longer transcript says where it stops. */
export const MAX_EXPORTED_MESSAGES = 50_000;
/** Why the console reads a transcript: what the audit log records. */
const AUDIT_REASON = 'console: transcript view';

const messagesPageSchema = pageJsonSchema(messageJsonSchema);

const sessionPath = (sessionId: string) => `/v1/admin/sessions/${encodeURIComponent(sessionId)}`;

/**
 * Any user's session and the first page of its transcript through the admin routes (the API audits
 * the read when the session is another user's). The page reads the rest progressively.
 */
export function readSessionFirstPage(
  credential: ApiCredential,
  sessionId: string,
): Promise<SessionWithMessagesJson> {
  return getFromApi(
    credential,
    sessionPath(sessionId),
    { limit: String(MESSAGE_PAGE_SIZE), reason: AUDIT_REASON },
    sessionWithMessagesJsonSchema,
  );
}

/** One keyset page of a transcript, after `cursor` (from the start when null). */
export function readMessagesPage(
  credential: ApiCredential,
  sessionId: string,
  cursor: string | null,
): Promise<PageJson<MessageJson>> {
  return getFromApi(
    credential,
    `${sessionPath(sessionId)}/messages`,
    { ...pageQuery(cursor ?? undefined, MESSAGE_PAGE_SIZE), reason: AUDIT_REASON },
    messagesPageSchema,
  );
}

/** The API's live feed of a session (with the reason the audit log records). */
export function liveFeedPath(sessionId: string): string {
  return `${sessionPath(sessionId)}/live?${new URLSearchParams({ reason: AUDIT_REASON }).toString()}`;
}

/** One page of the full stored output of a tool call. */
export function readToolResultPage(
  credential: ApiCredential,
  sessionId: string,
  toolCallId: string,
  offset: number,
): Promise<ToolResultPageJson> {
  return getFromApi(
    credential,
    `${sessionPath(sessionId)}/tool-results/${encodeURIComponent(toolCallId)}`,
    { offset: String(offset), limit: String(TOOL_RESULT_PAGE_CHARACTERS), reason: AUDIT_REASON },
    toolResultPageJsonSchema,
  );
}

export interface SessionTranscript {
  session: SessionJson;
  messages: MessageJson[];
  /** True when the transcript has more messages than were read. */
  incomplete: boolean;
}

/** The session and its whole transcript (up to {@link MAX_EXPORTED_MESSAGES}), following the cursor. */
export async function readWholeTranscript(
  credential: ApiCredential,
  sessionId: string,
): Promise<SessionTranscript> {
  const first = await readSessionFirstPage(credential, sessionId);
  const messages = [...first.messages.items];
  let cursor = first.messages.nextCursor;
  while (cursor !== null && messages.length < MAX_EXPORTED_MESSAGES) {
    const page = await readMessagesPage(credential, sessionId, cursor);
    messages.push(...page.items);
    cursor = page.nextCursor;
  }
  return { session: first.session, messages, incomplete: cursor !== null };
}
