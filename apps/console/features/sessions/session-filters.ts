import {
  defaultSessionSort,
  sessionSortFields,
  type ListSort,
  type SessionSortField,
} from '@agentdesk/api-contract';
import {
  choiceField,
  dayField,
  dayRangeProblem,
  pageQuery,
  pagedListQuery,
  sortOf,
  sortParamsOf,
  sortQueryFields,
  startOfNextDay,
  textField,
  type FiltersOf,
  type ParsedQuery,
  type SearchParams,
  type TableSorting,
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
  /** The column the list is sorted by and which way (`created`, newest first, when unset). */
  ...sortQueryFields(sessionSortFields),
});

export type SessionFilters = FiltersOf<typeof sessionListQuery.fields>;

export function parseSessionFilters(params: SearchParams): ParsedQuery<SessionFilters> {
  const parsed = sessionListQuery.parse(params);
  const range = dayRangeProblem(parsed.filters, sessionRangeTitles);
  return range === undefined ? parsed : { ...parsed, problems: [...parsed.problems, range] };
}

/** The range fields' titles, as the form labels them. */
export const sessionRangeTitles = { from: 'Created from', to: 'Created to' } as const;

const userIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin listing's query: `to` is inclusive for people, so it becomes "before the next day". */
export function toAdminListQuery(
  filters: SessionFilters,
  pageSize: number,
): Record<string, string | undefined> {
  return {
    // A user id goes as is; anything else is a person's name, email or external id (resolved by the API).
    ...(filters.user === undefined
      ? {}
      : userIdPattern.test(filters.user)
        ? { userId: filters.user }
        : { user: filters.user }),
    portalId: filters.portal,
    model: filters.model,
    status: filters.status,
    label: filters.label,
    createdFrom: filters.from === undefined ? undefined : `${filters.from}T00:00:00.000Z`,
    createdBefore: filters.to === undefined ? undefined : startOfNextDay(filters.to),
    sort: filters.sort,
    dir: filters.dir,
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function sessionsHref(filters: SessionFilters, changes: Partial<SessionFilters> = {}): string {
  return sessionListQuery.href(filters, changes);
}

/** The sessions table's order and its header links (filters kept, back to the first page). */
export function sessionSorting(filters: SessionFilters): TableSorting<SessionSortField> {
  return {
    current: sortOf(filters, defaultSessionSort),
    hrefOf: (sort: ListSort<SessionSortField>) =>
      sessionsHref(filters, { ...sortParamsOf(sort, defaultSessionSort), cursor: undefined }),
  };
}
