/**
 * The request header `proxy.ts` sets when it sends a page to `/api-unavailable`: what the API did
 * (`unreachable`, or `failing:<status>`). Always the proxy's: a value the client sent is removed.
 */
export const API_PROBLEM_HEADER = 'x-agentdesk-api-problem';

/** Where a page goes (rewritten, the address bar unchanged) while the API cannot give it data. */
export const API_UNAVAILABLE_PATH = '/api-unavailable';

/**
 * Paths that are not pages: Next's own files, the icon, and the route handlers the browser calls
 * with fetch or as a download (they answer JSON refusals of their own, `consoleRefusal`).
 */
const notPages = [/^\/_next\//, /^\/icon(\.\w+)?$/, /^\/favicon\.ico$/, /^\/auth\//, /\/(export|events)$/];

/** What the proxy needs of a request to decide whether it is a full page load. */
export interface NavigationRequest {
  readonly method: string;
  readonly pathname: string;
  readonly headers: { get(name: string): string | null };
}

/**
 * A full page load (the browser's document request, not a client-side navigation's RSC fetch, a
 * prefetch, or a route handler): the requests whose HTTP status an admin, a monitor or a crawler
 * reads, and the only ones the proxy checks the API for before rendering.
 */
export function isPageLoad(request: NavigationRequest): boolean {
  if (request.method !== 'GET') return false;
  if (notPages.some((pattern) => pattern.test(request.pathname))) return false;
  if (request.headers.get('rsc') !== null || request.headers.get('next-router-prefetch') !== null)
    return false;
  const destination = request.headers.get('sec-fetch-dest');
  if (destination !== null) return destination === 'document';
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/** The header's value for a probe result, and back (an unknown value reads as unreachable). */
export function apiProblemValue(
  problem: { state: 'unreachable' } | { state: 'failing'; status: number },
): string {
  return problem.state === 'unreachable' ? 'unreachable' : `failing:${problem.status}`;
}

export type ApiProblemKind = { kind: 'unreachable' } | { kind: 'failing'; status: number };

export function readApiProblem(value: string | null): ApiProblemKind | undefined {
  if (value === null) return undefined;
  const failing = /^failing:(\d{3})$/.exec(value);
  if (failing?.[1] !== undefined) return { kind: 'failing', status: Number(failing[1]) };
  return { kind: 'unreachable' };
}
