/** The link to one message inside its session's transcript (the transcript gives each message this anchor). */
export function messageHref(sessionId: string, messageId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}#message-${encodeURIComponent(messageId)}`;
}

/** This page's URL for a query and, optionally, a page cursor. */
export function searchHref(query: string, cursor?: string): string {
  const params = new URLSearchParams({ q: query });
  if (cursor !== undefined) params.set('cursor', cursor);
  return `/search?${params.toString()}`;
}
