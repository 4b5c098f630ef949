import { pagedListQuery, textField } from '../url-state';

/** The link to one message inside its session's transcript (the transcript gives each message this anchor). */
export function messageHref(sessionId: string, messageId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}#message-${encodeURIComponent(messageId)}`;
}

/** The search page's URL: the words searched for (`q`), then the page of results. */
export const searchQuery = pagedListQuery('/search', { q: textField() });

/** This page's URL for a query and, optionally, a page cursor. */
export function searchHref(query: string, cursor?: string): string {
  return searchQuery.href({ q: query, cursor });
}
