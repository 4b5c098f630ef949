/** One CSV cell's value: text, a number, a yes/no, or nothing (an empty cell). */
export type CsvValue = string | number | boolean | null;

/**
 * Characters that make a spreadsheet read a cell as a formula (`=`, `+`, `-`, `@`) or that some
 * treat the same way after trimming (tab, carriage return): OWASP's "CSV injection" list.
 */
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/**
 * One cell per RFC 4180: quoted when it holds a comma, a double quote or a line break, quotes
 * doubled. Text that starts like a formula gets a leading `'` so a spreadsheet shows it as text
 * instead of running it (a label `=HYPERLINK(…)` stays a label); numbers are left alone.
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record: cells separated by commas, ended by CRLF (RFC 4180). */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
