import { auditOutcomeSchema } from '@agentdesk/api-contract';
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
});

export type AuditFilters = FiltersOf<typeof auditListQuery.fields>;

export function parseAuditFilters(params: SearchParams): ParsedQuery<AuditFilters> {
  return auditListQuery.parse(params);
}

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
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function auditHref(filters: AuditFilters, changes: Partial<AuditFilters> = {}): string {
  return auditListQuery.href(filters, changes);
}
