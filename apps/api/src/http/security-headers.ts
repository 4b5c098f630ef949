import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { PERMISSIONS_POLICY } from '@agentdesk/api-contract';
import { synchronousHook } from './synchronous-hook';

/**
 * The API answers JSON (and event streams) to programs; a browser that opens one of its URLs, or a
 * page that tries to frame or sniff it, must get nothing to run or render: CSP `default-src 'none'`
 * and `frame-ancestors 'none'`. Only the OpenAPI page (`/docs`) loads its own scripts, styles and
 * the document (`docsSecurityRouteConfig`).
 */
const jsonContentSecurityPolicy = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
};

/**
 * Swagger UI: its bundle, preset and initializer are files of `/docs` (no inline script, no eval);
 * it applies inline styles and draws its icons as data: SVG images (Chromium refuses both without
 * `'unsafe-inline'` and `data:`), and fetches `/openapi.json` and "Try it out" calls from this origin.
 */
const docsContentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/** helmet's settings: its defaults (nosniff, COOP/CORP same-origin, …) with ours where they differ. */
export function securityHeaderOptions(options: { hsts: boolean }): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: jsonContentSecurityPolicy,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // One year, sub-domains too; only when the operator says clients come over HTTPS (a TLS proxy
    // in front): sent over plain HTTP it is ignored at best and locks out a plain-HTTP host at worst.
    strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

/** Route config (`@RouteConfig`) of `GET /docs`: the policy Swagger UI works under. */
export const docsSecurityRouteConfig = { helmet: { contentSecurityPolicy: docsContentSecurityPolicy } };

/**
 * Registers `@fastify/helmet` (and Permissions-Policy, which helmet does not send) before any other
 * hook, so every answer carries the headers: refusals of the early hooks, 404s and errors, and
 * streams (helmet sets them on the raw response, which a hijacked stream's `writeHead` keeps).
 */
export async function registerSecurityHeaders(
  fastify: FastifyInstance,
  options: { hsts: boolean },
): Promise<void> {
  await fastify.register(fastifyHelmet, securityHeaderOptions(options));
  fastify.addHook(
    'onRequest',
    synchronousHook((_request, reply) => {
      reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    }),
  );
}
