import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { rawHeaderValues, readSingleHeader } from './raw-headers';

const hostShape = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;
const maximumEchoedLength = 100;

/**
 * True for a `host[:port]` that names this machine only: `localhost`, an IPv4 address in
 * 127.0.0.0/8 or `[::1]`, with any port. Parsed like a browser does (so `127.1` is 127.0.0.1);
 * anything else — a DNS name that merely resolves to 127.0.0.1, user info, a path — is not.
 */
export function isLoopbackAuthority(authority: string): boolean {
  if (!hostShape.test(authority)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${authority}`).hostname;
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}

/** True for an `Origin` on this machine: `http(s)://` plus a loopback authority, nothing more. */
export function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/([^/?#]+)$/i.exec(origin);
  return match !== null && isLoopbackAuthority(match[1]!);
}

function echo(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(
    clean.length > maximumEchoedLength ? `${clean.slice(0, maximumEchoedLength)}…` : clean,
  );
}

/**
 * Fastify `onRequest` hook for dev mode, where a request without a key acts as the local user.
 * Binding to loopback is not enough: any web page the developer opens can send requests to
 * 127.0.0.1 (a form post, `fetch` in no-cors mode), and a DNS-rebinding page can even read the
 * answers. So in dev mode every request must be addressed to this machine by name (`Host`), and
 * a browser request from another origin (`Origin`, or `Sec-Fetch-Site: cross-site` when no Origin
 * is sent) is refused with 403. Bodies are JSON only on every route (see `json-bodies.ts`).
 */
export function refuseForeignDevModeRequests(request: FastifyRequest): void {
  const host = readSingleHeader(request.raw.rawHeaders, 'host');
  if (host.kind !== 'once' || !isLoopbackAuthority(host.value)) {
    const got =
      host.kind === 'absent'
        ? 'none'
        : host.kind === 'repeated'
          ? `${host.count} Host headers`
          : echo(host.value);
    throw new ApiError(
      ApiErrorCode.Forbidden,
      `Dev mode answers only requests addressed to this machine: the Host header must be localhost, 127.x.x.x or [::1] (any port), got ${got}`,
    );
  }
  const origins = rawHeaderValues(request.raw.rawHeaders, 'origin');
  const foreignOrigin = origins.find((origin) => !isLoopbackOrigin(origin));
  if (foreignOrigin !== undefined) {
    throw new ApiError(
      ApiErrorCode.Forbidden,
      `Dev mode refuses cross-origin requests: Origin ${echo(foreignOrigin)} is not on this machine (http://localhost, 127.x.x.x or [::1])`,
    );
  }
  const crossSite = rawHeaderValues(request.raw.rawHeaders, 'sec-fetch-site').some((value) =>
    value
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .includes('cross-site'),
  );
  if (origins.length === 0 && crossSite) {
    throw new ApiError(
      ApiErrorCode.Forbidden,
      'Dev mode refuses cross-site requests (Sec-Fetch-Site: cross-site without a loopback Origin)',
    );
  }
}
