import { readDayRange, singleParam, startOfNextDay, type SearchParams } from '../url-state';
/**
 * The sessions page's filters as they sit in its URL (so a filtered list can be bookmarked and
 * shared), and their translation to the query of `GET /v1/admin/sessions`. The API validates them
 * again and names any field it refuses.
 */
export interface SessionFilters {
  /** The owner's user id. */
  user?: string;
  /** The owner's portal id (exact). */
  portal?: string;
  /** The session's model (exact). */
  model?: string;
  status?: 'open' | 'closed';
  /** Text the label contains. */
  label?: string;
  /** First day included, `YYYY-MM-DD` (UTC). */
  from?: string;
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to?: string;
  /** The API's `nextCursor` of the previous page. */
  cursor?: string;
}

export interface ParsedFilters {
  filters: SessionFilters;
  /** Values that cannot be sent, each naming its field and what to fix. */
  problems: string[];
}

export function parseSessionFilters(params: SearchParams): ParsedFilters {
  const filters: SessionFilters = {};
  const problems: string[] = [];
  const user = singleParam(params, 'user');
  if (user !== undefined) filters.user = user;
  const portal = singleParam(params, 'portal');
  if (portal !== undefined) filters.portal = portal;
  const model = singleParam(params, 'model');
  if (model !== undefined) filters.model = model;
  const label = singleParam(params, 'label');
  if (label !== undefined) filters.label = label;
  const cursor = singleParam(params, 'cursor');
  if (cursor !== undefined) filters.cursor = cursor;
  const status = singleParam(params, 'status');
  if (status === 'open' || status === 'closed') filters.status = status;
  // The URL's value is not repeated: the problem is worded by the page (the form still shows it).
  else if (status !== undefined) problems.push('Status must be open or closed.');
  const days = readDayRange(params, { from: 'Created from', to: 'Created to' });
  Object.assign(filters, days.range);
  return { filters, problems: [...problems, ...days.problems] };
}

/** The admin listing's query: `to` is inclusive for people, so it becomes "before the next day". */
export function toAdminListQuery(
  filters: SessionFilters,
  pageSize: number,
): Record<string, string | undefined> {
  return {
    userId: filters.user,
    portalId: filters.portal,
    model: filters.model,
    status: filters.status,
    label: filters.label,
    createdFrom: filters.from === undefined ? undefined : `${filters.from}T00:00:00.000Z`,
    createdBefore: filters.to === undefined ? undefined : startOfNextDay(filters.to),
    cursor: filters.cursor,
    limit: String(pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function sessionsHref(filters: SessionFilters, changes: Partial<SessionFilters> = {}): string {
  const merged = { ...filters, ...changes };
  const query = new URLSearchParams();
  for (const name of ['user', 'portal', 'model', 'status', 'label', 'from', 'to', 'cursor'] as const) {
    const value = merged[name];
    if (value !== undefined) query.set(name, value);
  }
  const text = query.toString();
  return text === '' ? '/sessions' : `/sessions?${text}`;
}
