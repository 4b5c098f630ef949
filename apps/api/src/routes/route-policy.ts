import type { Scope } from '@agentdesk/authz';
import { SetMetadata } from '@nestjs/common';

/**
 * The ways in a route may be called through, one passport strategy each (`auth/`): an API key
 * (`Authorization: Bearer` or `X-API-Key`), or a console session (`X-Console-Session`, the token the
 * console's server holds for a signed-in person).
 */
export const waysIn = ['api-key', 'console-session'] as const;
export type WayIn = (typeof waysIn)[number];

/** What a route accepts unless it says otherwise: either way in (the console reads what a key reads). */
export const DEFAULT_WAYS_IN: readonly [WayIn, ...WayIn[]] = ['api-key', 'console-session'];

/**
 * Who may call a route, as data: everyone, or principals whose role holds a scope and who came in
 * one of the route's ways.
 */
export type RoutePolicy =
  | { readonly kind: 'public' }
  | { readonly kind: 'scope'; readonly scope: Scope; readonly ways: readonly [WayIn, ...WayIn[]] };

/** Metadata key of the policy (on the handler, or on the controller class for all its routes). */
export const ROUTE_POLICY = 'agentdesk:route-policy';

/** Opts a route (or a controller) out of authentication. Without this or `RequireScope`, the global guard denies. */
export const Public = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ROUTE_POLICY, { kind: 'public' } satisfies RoutePolicy);

/**
 * Requires an authenticated principal whose role holds `scope` (checked with `can()`), come in one
 * of `ways` (default: an API key or a console session). A route only a portal or script should call
 * names `['api-key']`; one only the console's own session may call, `['console-session']`.
 */
export const RequireScope = (
  scope: Scope,
  options: { readonly ways?: readonly [WayIn, ...WayIn[]] } = {},
): MethodDecorator & ClassDecorator =>
  SetMetadata(ROUTE_POLICY, {
    kind: 'scope',
    scope,
    ways: options.ways ?? DEFAULT_WAYS_IN,
  } satisfies RoutePolicy);
