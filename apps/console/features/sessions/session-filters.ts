import {
  choiceField,
  dayField,
  pageQuery,
  pagedListQuery,
  startOfNextDay,
  textField,
  type FiltersOf,
  type ParsedQuery,
  type SearchParams,
} from '../url-state';

/**
 * The sessions page's filters as they sit in its URL, and their translation to the query of
 * `GET /v1/admin/sessions`. The API validates them again and names any field it refuses.
 */
export const sessionListQuery = pagedListQuery('/sessions', {
  /** The owner's user id. */
  user: textField(),
  /** The owner's portal id (exact). */
  portal: textField(),
  /** The session's model (exact). */
  model: textField(),
  status: choiceField(['open', 'closed'], 'Status must be open or closed.'),
  /** Text the label contains. */
  label: textField(),
  /** First day included, `YYYY-MM-DD` (UTC). */
  from: dayField('Created from'),
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to: dayField('Created to'),
});

export type SessionFilters = FiltersOf<typeof sessionListQuery.fields>;

export function parseSessionFilters(params: SearchParams): ParsedQuery<SessionFilters> {
  return sessionListQuery.parse(params);
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
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function sessionsHref(filters: SessionFilters, changes: Partial<SessionFilters> = {}): string {
  return sessionListQuery.href(filters, changes);
}
