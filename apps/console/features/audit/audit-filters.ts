import { auditOutcomeSchema, type AuditOutcomeJson } from '@agentdesk/api-contract';
import { readDayRange, singleParam, startOfNextDay, type SearchParams } from '../url-state';
/**
 * The audit page's filters as they sit in its URL, and their translation to the query of
 * `GET /v1/admin/audit`. The API validates them again and names any field it refuses.
 */
export interface AuditFilters {
  /** The principal (user id) who acted. */
  actor?: string;
  /** An action such as `admin.session.read`. */
  action?: string;
  /** How the attempt ended: `refused` shows what the API turned down (failed sign-ins included). */
  outcome?: AuditOutcomeJson;
  /** The user whose data was read or changed. */
  target?: string;
  session?: string;
  /** First day included, `YYYY-MM-DD` (UTC). */
  from?: string;
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to?: string;
  cursor?: string;
}

const fieldNames = ['actor', 'action', 'outcome', 'target', 'session', 'from', 'to', 'cursor'] as const;

export function parseAuditFilters(params: SearchParams): { filters: AuditFilters; problems: string[] } {
  const filters: AuditFilters = {};
  const problems: string[] = [];
  for (const name of ['actor', 'action', 'target', 'session', 'cursor'] as const) {
    const value = singleParam(params, name);
    if (value !== undefined) filters[name] = value;
  }
  const outcome = singleParam(params, 'outcome');
  const parsedOutcome = auditOutcomeSchema.safeParse(outcome);
  if (parsedOutcome.success) filters.outcome = parsedOutcome.data;
  else if (outcome !== undefined) problems.push('Outcome must be succeeded, refused or failed.');
  const days = readDayRange(params, { from: 'From', to: 'To' });
  Object.assign(filters, days.range);
  return { filters, problems: [...problems, ...days.problems] };
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
    cursor: filters.cursor,
    limit: String(pageSize),
  };
}

/** This page's URL with some filters changed (`undefined` removes one). */
export function auditHref(filters: AuditFilters, changes: Partial<AuditFilters> = {}): string {
  const merged = { ...filters, ...changes };
  const query = new URLSearchParams();
  for (const name of fieldNames) {
    const value = merged[name];
    if (value !== undefined) query.set(name, value);
  }
  const text = query.toString();
  return text === '' ? '/audit' : `/audit?${text}`;
}
