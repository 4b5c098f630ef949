/**
 * What the API's liveness route said just before a page rendered, for `proxy.ts`: a page whose
 * data cannot come answers 503 (nothing answered) or 502 (the API answered with a failure of its
 * own) instead of a 200 carrying an error message.
 */
export type ApiProbeResult =
  | { readonly state: 'up' }
  /** Nothing answered: connection refused, a name that does not resolve, or no answer in time. */
  | { readonly state: 'unreachable' }
  /** The API answered, but with a 5xx (or another status its liveness route never gives). */
  | { readonly state: 'failing'; readonly status: number };

/** How long a page waits for the API's liveness answer before calling it unreachable. */
export const API_PROBE_TIMEOUT_MS = 5_000;

/** Asks `GET <api>/healthz` (public, answers without touching the database). */
export async function probeApi(
  apiBaseUrl: string,
  timeoutMs: number = API_PROBE_TIMEOUT_MS,
): Promise<ApiProbeResult> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}/healthz`, {
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { state: 'unreachable' };
  }
  // The body is not needed: drain it so the connection can be reused.
  await response.body?.cancel().catch(() => undefined);
  return response.ok ? { state: 'up' } : { state: 'failing', status: response.status };
}

/** The HTTP status a page answers while the API is not up: 503 unreachable, 502 failing. */
export function pageStatusFor(result: Exclude<ApiProbeResult, { state: 'up' }>): 502 | 503 {
  return result.state === 'unreachable' ? 503 : 502;
}
