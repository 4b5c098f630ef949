const MILLISECONDS_PER_DAY = 86_400_000;

/** A named range of whole UTC days ending today, as the date filters hold it (`YYYY-MM-DD`). */
export interface DatePreset {
  readonly label: string;
  readonly from: string;
  readonly to: string;
}

/** Today's date in UTC, the time zone every date filter of the console and the API counts in. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function daysBefore(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - days * MILLISECONDS_PER_DAY));
}

/** Today, the last 7 days and the last 30 days (today included), in UTC days. */
export function datePresets(now: Date): readonly DatePreset[] {
  const today = utcDay(now);
  return [
    { label: 'Today', from: today, to: today },
    { label: 'Last 7 days', from: daysBefore(today, 6), to: today },
    { label: 'Last 30 days', from: daysBefore(today, 29), to: today },
  ];
}

/**
 * The problem of a day range the wrong way round, in the page's own field titles, or undefined.
 * The API refuses the same range (`from: must not be after to`); the console says it first, without
 * asking.
 */
export function dayRangeProblem(
  range: { from?: string | undefined; to?: string | undefined },
  titles: { from: string; to: string },
): string | undefined {
  if (range.from === undefined || range.to === undefined || range.from <= range.to) return undefined;
  return `${titles.from} must not be after ${titles.to}.`;
}

/**
 * A GET form's fields as the URL should carry them: only those set (an empty field is a filter not
 * set, and `?portal=&user=` would say otherwise), in the form's order.
 */
export function queryOfSetFields(entries: Iterable<readonly [string, unknown]>): string {
  const query = new URLSearchParams();
  for (const [name, value] of entries)
    if (typeof value === 'string' && value.trim() !== '') query.append(name, value);
  return query.toString();
}
