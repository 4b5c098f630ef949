/**
 * The audit page's filters as they sit in its URL, and their translation to the query of
 * `GET /v1/admin/audit`. The API validates them again and names any field it refuses.
 */
export interface AuditFilters {
  /** The principal (user id) who acted. */
  actor?: string;
  /** An action such as `admin.session.read`. */
  action?: string;
  /** The user whose data was read. */
  target?: string;
  session?: string;
  /** First day included, `YYYY-MM-DD` (UTC). */
  from?: string;
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to?: string;
  cursor?: string;
}

export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

const fieldNames = ['actor', 'action', 'target', 'session', 'from', 'to', 'cursor'] as const;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function single(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

export function parseAuditFilters(params: SearchParams): { filters: AuditFilters; problems: string[] } {
  const filters: AuditFilters = {};
  const problems: string[] = [];
  for (const name of ['actor', 'action', 'target', 'session', 'cursor'] as const) {
    const value = single(params, name);
    if (value !== undefined) filters[name] = value;
  }
  for (const [name, title] of [
    ['from', 'From'],
    ['to', 'To'],
  ] as const) {
    const day = single(params, name);
    if (day === undefined) continue;
    if (dayPattern.test(day) && isRealDay(day)) filters[name] = day;
    else problems.push(`${title} must be a date like 2026-01-31, not “${day}”.`);
  }
  return { filters, problems };
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/** The API's query: `to` is inclusive for people, so it becomes "before the next day". */
export function toAuditQuery(filters: AuditFilters, pageSize: number): Record<string, string | undefined> {
  return {
    actorId: filters.actor,
    action: filters.action,
    targetUserId: filters.target,
    sessionId: filters.session,
    from: filters.from === undefined ? undefined : `${filters.from}T00:00:00.000Z`,
    before: filters.to === undefined ? undefined : nextDay(filters.to),
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
