/**
 * CSRF guard of the console's route handlers (Next checks the Origin of server actions itself, not
 * of route handlers). The cookie is SameSite=Strict already; this refuses any state-changing request
 * whose Origin is missing or names another site.
 */
export function isSameOriginRequest(headers: Headers): boolean {
  const origin = headers.get('origin');
  // The Host the browser addressed; a forwarded header is not trusted (any client can send one).
  const host = headers.get('host');
  if (origin === null || host === null || origin === 'null') return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
