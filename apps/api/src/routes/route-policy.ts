import type { Scope } from '@agentdesk/authz';
import { SetMetadata } from '@nestjs/common';

/** Who may call a route: everyone, or principals whose role holds a scope. Data, not code. */
export type RoutePolicy = { readonly kind: 'public' } | { readonly kind: 'scope'; readonly scope: Scope };

/** Metadata key of the policy (on the handler, or on the controller class for all its routes). */
export const ROUTE_POLICY = 'agentdesk:route-policy';

/** Opts a route (or a controller) out of authentication. Without this or `RequireScope`, the global guard denies. */
export const Public = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ROUTE_POLICY, { kind: 'public' } satisfies RoutePolicy);

/** Requires an authenticated principal whose role holds `scope` (checked with `can()`). */
export const RequireScope = (scope: Scope): MethodDecorator & ClassDecorator =>
  SetMetadata(ROUTE_POLICY, { kind: 'scope', scope } satisfies RoutePolicy);
