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

/**
 * The `from` / `to` days of a date-range filter: each a calendar day, or a problem worded for the
 * person who typed it (`titles` name the form fields). The problem does not quote the value: a URL
 * anyone can write must not put its words into the page's alert (the form field still shows it).
 */
export function readDayRange(
  params: SearchParams,
  titles: { readonly from: string; readonly to: string },
): { range: { from?: string; to?: string }; problems: string[] } {
  const range: { from?: string; to?: string } = {};
  const problems: string[] = [];
  for (const name of ['from', 'to'] as const) {
    const day = singleParam(params, name);
    if (day === undefined) continue;
    if (isCalendarDay(day)) range[name] = day;
    else problems.push(`${titles[name]} must be a date like 2026-01-31.`);
  }
  return { range, problems };
}

/** The instant a day ends: people read `to` as inclusive, the API's bound is exclusive. */
export function startOfNextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}
