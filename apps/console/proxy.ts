import { NextResponse, type NextRequest } from 'next/server';
import {
  API_PROBLEM_HEADER,
  API_UNAVAILABLE_PATH,
  INTERNAL_PAGE_HEADER,
  isInternalPageRequest,
  isPageLoad,
  probeApi,
  unavailablePageResponse,
} from './features/api-status';
import { REQUEST_PATH_HEADER } from './features/auth/return-path';
import { consoleConfig } from './features/config/server/console-config';
import { newNonce, securityHeaders } from './features/security-headers';

/**
 * Runs before every request (pages, route handlers, static files): a fresh nonce goes into the
 * request's Content-Security-Policy, where Next finds it and puts it on its own scripts (every page
 * renders per request: the root layout awaits `connection()`), and the response gets the security
 * headers. The path asked for travels on so a signed-out visitor returns to it after sign-in.
 *
 * A full page load first asks the API whether it answers (`GET /healthz`): when it does not, the
 * answer — the address unchanged — is `/api-unavailable`, which says so in the console's layout,
 * with the true status, 503 (nothing answered) or 502 (the API failed). A server component cannot
 * set its response's status once rendering starts; the proxy runs before (`unavailable-page.ts`).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const headers = securityHeaders({
    nonce: newNonce(),
    secureTransport: consoleConfig().secureCookie,
    // Inlined by Next at build time: `next dev`'s React needs eval, a production build never does.
    development: process.env.NODE_ENV === 'development',
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', headers['content-security-policy'] ?? '');
  // Always ours: a value the client sent is replaced. `_rsc` is Next's cache key, not the page's.
  const asked = request.nextUrl.clone();
  asked.searchParams.delete('_rsc');
  const askedPath = `${asked.pathname}${asked.search}`;
  // The problem and asked-path headers are believed only on this process's own request for its
  // status page (`unavailable-page.ts`); anyone else's are replaced.
  const internal =
    request.nextUrl.pathname === API_UNAVAILABLE_PATH && isInternalPageRequest(request.headers);
  if (!internal) {
    requestHeaders.delete(API_PROBLEM_HEADER);
    requestHeaders.set(REQUEST_PATH_HEADER, askedPath);
  }
  requestHeaders.delete(INTERNAL_PAGE_HEADER);
  if (internal) return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
  const pageLoad = isPageLoad({
    method: request.method,
    pathname: request.nextUrl.pathname,
    headers: request.headers,
  });
  if (!pageLoad) return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
  const probe = await probeApi(consoleConfig().apiBaseUrl);
  if (probe.state === 'up')
    return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
  const page = await unavailablePageResponse(
    { origin: request.nextUrl.origin, askedPath, cookie: request.headers.get('cookie') },
    probe,
  );
  // The page's own Content-Security-Policy stays: it names the nonce its scripts carry.
  const { 'content-security-policy': _ours, ...others } = headers;
  return withHeaders(new NextResponse(page.body, page), others);
}

function withHeaders<R extends Response>(response: R, headers: Record<string, string>): R {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
