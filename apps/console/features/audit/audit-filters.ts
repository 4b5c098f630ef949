import {
  auditOutcomeSchema,
  auditSortFields,
  defaultAuditSort,
  type AuditSortField,
  type ListSort,
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
 * The audit page's filters as they sit in its URL, and their translation to the query of
 * `GET /v1/admin/audit`. The API validates them again and names any field it refuses.
 */
export const auditListQuery = pagedListQuery('/audit', {
  /** The principal (user id) who acted. */
  actor: textField(),
  /** An action such as `admin.session.read`. */
  action: textField(),
  /** How the attempt ended: `refused` shows what the API turned down (failed sign-ins included). */
  outcome: choiceField(auditOutcomeSchema.options, 'Outcome must be succeeded, refused or failed.'),
  /** The user whose data was read or changed. */
  target: textField(),
  session: textField(),
  /** First day included, `YYYY-MM-DD` (UTC). */
  from: dayField('From'),
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to: dayField('To'),
  /** The column the log is sorted by and which way (`at`, newest first, when unset). */
  ...sortQueryFields(auditSortFields),
});

export type AuditFilters = FiltersOf<typeof auditListQuery.fields>;

export function parseAuditFilters(params: SearchParams): ParsedQuery<AuditFilters> {
  const parsed = auditListQuery.parse(params);
  const range = dayRangeProblem(parsed.filters, auditRangeTitles);
  return range === undefined ? parsed : { ...parsed, problems: [...parsed.problems, range] };
}

/** The range fields' titles, as the form labels them. */
export const auditRangeTitles = { from: 'From', to: 'To' } as const;

/** The API's query: `to` is inclusive for people, so it becomes "before the next day". */
export function toAuditQuery(filters: AuditFilters, pageSize: number): Record<string, string | undefined> {
  return {
    actorId: filters.actor,
    action: filters.action,
    outcome: filters.outcome,
    targetUserId: filters.target,
    sessionId: filters.session,
    from: filters.from === undefined ? undefined : `${filters.from}T00:00:00.000Z`,
    before: filters.to === undefined ? undefined : startOfNextDay(filters.to),
    sort: filters.sort,
    dir: filters.dir,
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function auditHref(filters: AuditFilters, changes: Partial<AuditFilters> = {}): string {
  return auditListQuery.href(filters, changes);
}

/** The audit table's order and its header links (filters kept, back to the first page). */
export function auditSorting(filters: AuditFilters): TableSorting<AuditSortField> {
  return {
    current: sortOf(filters, defaultAuditSort),
    hrefOf: (sort: ListSort<AuditSortField>) =>
      auditHref(filters, { ...sortParamsOf(sort, defaultAuditSort), cursor: undefined }),
  };
}
