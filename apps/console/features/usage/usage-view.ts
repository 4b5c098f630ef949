import { usageGroupings, type UsageGrouping } from '@agentdesk/api-contract';
import { isCalendarDay, singleParam, type SearchParams } from '../url-state';
import { visibleText } from '../visible-text';

/**
 * The usage page's view as it sits in its URL (grouping and UTC date range), and its translation to
 * the query of `GET /v1/admin/usage`. The API validates the range again and names any field it refuses.
 */
export interface UsageView {
  groupBy: UsageGrouping;
  /** First day included, `YYYY-MM-DD` (UTC); absent: the API's default range. */
  from?: string;
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to?: string;
}

function isGrouping(value: string): value is UsageGrouping {
  return (usageGroupings as readonly string[]).includes(value);
}

/** Reads the view from the URL; anything unreadable is named in `problems` rather than guessed at. */
export function parseUsageView(params: SearchParams): { view: UsageView; problems: string[] } {
  const problems: string[] = [];
  const groupBy = singleParam(params, 'groupBy') ?? 'model';
  const view: UsageView = { groupBy: isGrouping(groupBy) ? groupBy : 'model' };
  // Problems never quote the URL's value: a link anyone can write must not word the page's alert.
  if (!isGrouping(groupBy)) problems.push(`Group by must be one of ${usageGroupings.join(', ')}.`);
  for (const name of ['from', 'to'] as const) {
    const day = singleParam(params, name);
    if (day === undefined) continue;
    if (isCalendarDay(day)) view[name] = day;
    else problems.push(`${name === 'from' ? 'From' : 'To'} must be a date (YYYY-MM-DD).`);
  }
  return { view, problems };
}

/** The page's URL for a view, with `change` applied. */
export function usageHref(view: UsageView, change: Partial<UsageView> = {}): string {
  const next = { ...view, ...change };
  const query = new URLSearchParams({ groupBy: next.groupBy });
  if (next.from !== undefined) query.set('from', next.from);
  if (next.to !== undefined) query.set('to', next.to);
  return `/usage?${query.toString()}`;
}

/** What a grouping is called on the page. */
export const groupingLabels: Readonly<Record<UsageGrouping, string>> = {
  model: 'Model',
  provider: 'Provider',
  portal: 'Portal',
  user: 'User',
};

/** Names of group keys where the API has them (user ids → user names); other keys show as they are. */
export type KeyNames = ReadonlyMap<string, string>;

/**
 * A group key as shown: its name when known, else the key, hidden characters made visible; null
 * means the calls had none of that kind.
 */
export function keyLabel(groupBy: UsageGrouping, key: string | null, names: KeyNames = new Map()): string {
  if (key !== null) return visibleText(names.get(key) ?? key);
  return { model: 'no model', provider: 'unknown provider', portal: 'no portal', user: 'no user' }[groupBy];
}
