/**
 * Reads a server-requested wait from `retry-after-ms`, else `retry-after` (seconds or an HTTP date).
 * Returns undefined when absent or unparseable, so the backoff schedule applies instead.
 */
export function retryAfterMsFromHeaders(
  headers: { get(name: string): string | null } | undefined,
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Parses Google's protobuf duration text (`"7s"`, `"0.5s"`) into milliseconds. */
export function durationTextToMs(duration: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(duration.trim());
  return match ? Number(match[1]) * 1000 : undefined;
}
