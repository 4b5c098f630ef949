import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER } from './features/auth/return-path';
import { consoleConfig } from './features/config/server/console-config';
import { newNonce, securityHeaders } from './features/security-headers';

/**
 * Runs before every request (pages, route handlers, static files): a fresh nonce goes into the
 * request's Content-Security-Policy, where Next finds it and puts it on its own scripts (every page
 * renders per request: the root layout awaits `connection()`), and the response gets the security
 * headers. The path asked for travels on so a signed-out visitor returns to it after sign-in.
 */
export function proxy(request: NextRequest): NextResponse {
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
  requestHeaders.set(REQUEST_PATH_HEADER, `${asked.pathname}${asked.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
