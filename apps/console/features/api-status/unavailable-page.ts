import { REQUEST_PATH_HEADER } from '../auth/return-path';
import { API_PROBLEM_HEADER, API_UNAVAILABLE_PATH, apiProblemValue } from './page-navigation';
import type { ApiProbeResult } from './api-probe';
import { pageStatusFor } from './api-probe';

/**
 * The page a full page load gets while the API cannot give it data: `/api-unavailable` rendered by
 * this console (its layout and navigation) and answered with the true status, 503 or 502, the
 * address unchanged.
 *
 * Why a request to ourselves and not `NextResponse.rewrite`: with `next start --hostname 127.0.0.1`
 * (how `npm start` and the tests run the console) Next normalizes a rewrite's host to `localhost`
 * but compares it with the literal listen host, takes the rewrite for another site and proxies it —
 * back into this proxy, which fails (vercel/next.js#94745, unreleased fix #95917).
 *
 * The inner request proves it comes from this process with a secret made at start; only then does
 * `/api-unavailable` trust its problem and asked-path headers (a client's own are always replaced).
 */
export const INTERNAL_PAGE_HEADER = 'x-agentdesk-internal-page';

const internalPageSecret = crypto.randomUUID();

/** Whether a request to `/api-unavailable` is this process's own (and may carry the problem). */
export function isInternalPageRequest(headers: { get(name: string): string | null }): boolean {
  return headers.get(INTERNAL_PAGE_HEADER) === internalPageSecret;
}

/** How long the console waits for its own status page before answering a bare one. */
const INTERNAL_PAGE_TIMEOUT_MS = 5_000;

/** Response headers of the inner page the outer answer keeps (its CSP names the page's nonce). */
const keptHeaders = ['content-type', 'content-security-policy', 'vary'];

/** What the status page is rendered for: this console's origin, the page asked for and its cookies. */
export interface UnavailablePageRequest {
  readonly origin: string;
  /** The path (and query) asked for: the page's "try again" link. */
  readonly askedPath: string;
  readonly cookie: string | null;
}

export async function unavailablePageResponse(
  request: UnavailablePageRequest,
  probe: Exclude<ApiProbeResult, { state: 'up' }>,
): Promise<Response> {
  const status = pageStatusFor(probe);
  const headers = new Headers({ 'cache-control': 'no-store', 'retry-after': '5' });
  try {
    const page = await fetch(new URL(API_UNAVAILABLE_PATH, request.origin), {
      headers: {
        accept: 'text/html',
        [INTERNAL_PAGE_HEADER]: internalPageSecret,
        [API_PROBLEM_HEADER]: apiProblemValue(probe),
        [REQUEST_PATH_HEADER]: request.askedPath,
        ...(request.cookie === null ? {} : { cookie: request.cookie }),
      },
      redirect: 'manual',
      cache: 'no-store',
      signal: AbortSignal.timeout(INTERNAL_PAGE_TIMEOUT_MS),
    });
    if (page.ok) {
      for (const name of keptHeaders) {
        const value = page.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      return new Response(page.body, { status, headers });
    }
    await page.body?.cancel().catch(() => undefined);
  } catch {
    // The console could not reach itself (e.g. bound to an address `localhost` is not): a bare page.
  }
  headers.set('content-type', 'text/plain; charset=utf-8');
  const text =
    probe.state === 'unreachable'
      ? 'The AgentDesk API is not answering, so this page cannot be shown. Check that the API is running and AGENTDESK_API_URL points at it, then reload.'
      : `The AgentDesk API failed (HTTP ${probe.status}), so this page cannot be shown. Its log says why; reload once it is fixed.`;
  return new Response(text, { status, headers });
}
