/** A page's URL query as Next hands it to a server component. */
export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One query parameter as trimmed text: the first value when repeated (a hand-edited URL), and
 * `undefined` when absent or blank, so an empty form field means "no filter".
 */
export function singleParam(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` that names a day of the calendar (2026-02-30 does not). */
export function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return dayPattern.test(day) && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/** The instant a day ends: people read `to` as inclusive, the API's bound is exclusive. */
export function startOfNextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}
