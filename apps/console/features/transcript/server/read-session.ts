import {
  pageJsonSchema,
  messageJsonSchema,
  sessionWithMessagesJsonSchema,
  type MessageJson,
  type SessionJson,
} from '@agentdesk/api-contract';
import { getFromApi } from '../../api-client';

/** The API's largest transcript page. */
const MESSAGE_PAGE_SIZE = 500;
/** Read at most this many messages per view; a longer transcript says where it stops. */
export const MAX_TRANSCRIPT_MESSAGES = 2_000;

const messagesPageSchema = pageJsonSchema(messageJsonSchema);

export interface SessionTranscript {
  session: SessionJson;
  messages: MessageJson[];
  /** True when the transcript has more messages than this view read. */
  incomplete: boolean;
}

/**
 * Any user's session and its transcript through the admin routes (the API audits the read when the
 * session is another user's), following the API's cursor page by page.
 */
export async function readSessionTranscript(apiKey: string, sessionId: string): Promise<SessionTranscript> {
  const path = `/v1/admin/sessions/${encodeURIComponent(sessionId)}`;
  const first = await getFromApi(
    apiKey,
    path,
    { limit: String(MESSAGE_PAGE_SIZE), reason: 'console: transcript view' },
    sessionWithMessagesJsonSchema,
  );
  const messages = [...first.messages.items];
  let cursor = first.messages.nextCursor;
  while (cursor !== null && messages.length < MAX_TRANSCRIPT_MESSAGES) {
    const page = await getFromApi(
      apiKey,
      `${path}/messages`,
      { limit: String(MESSAGE_PAGE_SIZE), cursor, reason: 'console: transcript view' },
      messagesPageSchema,
    );
    messages.push(...page.items);
    cursor = page.nextCursor;
  }
  return {
    session: first.session,
    messages: messages.slice(0, MAX_TRANSCRIPT_MESSAGES),
    incomplete: cursor !== null,
  };
}
