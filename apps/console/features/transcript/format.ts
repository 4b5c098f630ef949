const tokenFormat = new Intl.NumberFormat('en-US');

export function formatTokens(count: number): string {
  return tokenFormat.format(count);
}

/** `2026-01-31 12:00:05 UTC`: the same on the server and every browser (no locale or zone drift). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  return `${Math.floor(milliseconds / 60_000)} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** Pretty JSON of a model's tool arguments (a JSON text); anything unparsable is shown as it came. */
export function prettyArguments(argumentsText: string): string {
  try {
    return JSON.stringify(JSON.parse(argumentsText), null, 2);
  } catch {
    return argumentsText;
  }
}
