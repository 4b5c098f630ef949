import {
  choiceField,
  dayField,
  dayRangeProblem,
  pageQuery,
  pagedListQuery,
  startOfNextDay,
  textField,
  type FiltersOf,
  type ParsedQuery,
  type SearchParams,
} from '../url-state';

/** The link to one message inside its session's transcript (the transcript gives each message this anchor). */
export function messageHref(sessionId: string, messageId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}#message-${encodeURIComponent(messageId)}`;
}

export const searchRoles = ['user', 'assistant', 'tool', 'system'] as const;

/** The search page's URL: the words searched for (`q`), the filters, then the page of results. */
export const searchQuery = pagedListQuery('/search', {
  q: textField(),
  /** The session owner's user id. */
  user: textField(),
  role: choiceField(searchRoles, 'Role must be user, assistant, tool or system.'),
  /** The model that wrote the message (exact). */
  model: textField(),
  /** First day included, `YYYY-MM-DD` (UTC). */
  from: dayField('From'),
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to: dayField('To'),
});

export type SearchFilters = FiltersOf<typeof searchQuery.fields>;

/** The range fields' titles, as the form labels them. */
export const searchRangeTitles = { from: 'From', to: 'To' } as const;

/** The page's filters, with a date range the wrong way round named as a problem. */
export function parseSearchFilters(params: SearchParams): ParsedQuery<SearchFilters> {
  const parsed = searchQuery.parse(params);
  const range = dayRangeProblem(parsed.filters, searchRangeTitles);
  return range === undefined ? parsed : { ...parsed, problems: [...parsed.problems, range] };
}

/** The query of `GET /v1/admin/search/messages`: `to` is inclusive for people, so it becomes "before the next day". */
export function toSearchApiQuery(
  filters: SearchFilters & { q: string },
  pageSize: number,
): Record<string, string | undefined> {
  return {
    q: filters.q,
    userId: filters.user,
    role: filters.role,
    model: filters.model,
    createdFrom: filters.from === undefined ? undefined : `${filters.from}T00:00:00.000Z`,
    createdBefore: filters.to === undefined ? undefined : startOfNextDay(filters.to),
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** This page's URL for a query and, optionally, a page cursor. */
export function searchHref(query: string, cursor?: string): string {
  return searchQuery.href({ q: query, cursor });
}

/** One piece of a snippet: plain text, or a searched word found. */
export interface SnippetPiece {
  text: string;
  found: boolean;
}

/**
 * A snippet cut at its highlights (from the API, in order and not overlapping), for the page to
 * show the found words as `<mark>` — text, never markup. A highlight outside the snippet is ignored.
 */
export function snippetPieces(
  snippet: string,
  highlights: readonly { start: number; length: number }[],
): SnippetPiece[] {
  const pieces: SnippetPiece[] = [];
  let at = 0;
  for (const { start, length } of highlights) {
    if (start < at || start + length > snippet.length) continue;
    if (start > at) pieces.push({ text: snippet.slice(at, start), found: false });
    pieces.push({ text: snippet.slice(start, start + length), found: true });
    at = start + length;
  }
  if (at < snippet.length) pieces.push({ text: snippet.slice(at), found: false });
  return pieces;
}
