import { usageGroupings, type UsageGrouping } from '@agentdesk/api-contract';
import {
  choiceField,
  dayField,
  dayRangeProblem,
  listQuery,
  withFallback,
  type FiltersOf,
  type SearchParams,
} from '../url-state';
import { visibleText } from '../visible-text';

/** What the usage chart can show. */
export const usageMeasures = ['tokens', 'cost'] as const;
export type UsageMeasure = (typeof usageMeasures)[number];

/**
 * The usage page's view as it sits in its URL: the grouping (always in its links) and a UTC date
 * range (absent: the API's default range). The API validates the range again and names any field
 * it refuses.
 */
export const usageQuery = listQuery('/usage', {
  groupBy: withFallback(
    choiceField(usageGroupings, `Group by must be one of ${usageGroupings.join(', ')}.`),
    'model',
  ),
  /** First day included, `YYYY-MM-DD` (UTC). */
  from: dayField('From'),
  /** Last day included, `YYYY-MM-DD` (UTC). */
  to: dayField('To'),
  /** What the chart stacks: tokens, or the cost of the calls that had a price. */
  measure: withFallback(choiceField(usageMeasures, 'Chart by must be tokens or cost.'), 'tokens'),
});

export type UsageView = FiltersOf<typeof usageQuery.fields>;

/** Reads the view from the URL; anything unreadable is named in `problems` rather than guessed at. */
export function parseUsageView(params: SearchParams): { view: UsageView; problems: string[] } {
  const { filters, problems } = usageQuery.parse(params);
  const range = dayRangeProblem(filters, { from: 'From', to: 'To' });
  return { view: filters, problems: range === undefined ? problems : [...problems, range] };
}

/** The page's URL for a view, with `change` applied. */
export function usageHref(view: UsageView, change: Partial<UsageView> = {}): string {
  return usageQuery.href(view, change);
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
