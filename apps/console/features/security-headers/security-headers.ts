/**
 * The headers every console response carries (`proxy.ts` sets them): a Content-Security-Policy
 * with a fresh script nonce per request, and the headers that keep the console out of frames and
 * browsers from guessing types or leaking paths. Pure, so the policy is unit-tested as text.
 */
import { PERMISSIONS_POLICY } from '@agentdesk/api-contract';

/** What changes a response's headers. */
export interface SecurityHeaderOptions {
  /** This request's nonce (base64): Next puts it on its own scripts, nothing else may run. */
  readonly nonce: string;
  /** Served over HTTPS (`AGENTDESK_CONSOLE_SECURE_COOKIE=true`): add HSTS and upgrade requests. */
  readonly secureTransport: boolean;
  /** `next dev` only: React's development build needs eval for its error overlay. */
  readonly development?: boolean;
}

/** One year; sent only behind HTTPS, where a downgrade to plain HTTP is an attack. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * The policy. Scripts: only those carrying this request's nonce, and what they load
 * (`'strict-dynamic'`: Next's chunks) — no inline script without it, no eval. Styles: the
 * stylesheet and Next's nonced `<style>`; `style` attributes are allowed (`style-src-attr`) because
 * React renders a few (the virtual list's height and offset, the usage chart's swatches) into the
 * HTML, and an attribute cannot run script. `frame-ancestors 'none'`: no page may frame the console.
 */
export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${nonce} 'strict-dynamic'${options.development === true ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' ${nonce}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.secureTransport ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/** Every security header of one response, by name (lower case). */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(options),
    // For browsers older than frame-ancestors; both say "never in a frame".
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    ...(options.secureTransport ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/** 128 random bits, base64: unguessable, fresh for every request. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
