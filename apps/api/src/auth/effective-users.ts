import {
  can,
  resolveEffectiveUserId,
  type EffectiveUser,
  type Principal,
  type Scope,
} from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import type { AccessContext } from '../core/access-context';
import { ACCESS_CONTEXT, APP_CONFIG, REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode, notFoundError } from '../errors/api-error';
import { END_USER_HEADER, END_USER_NAME_HEADER } from '../http/header-names';
import type { Repositories } from '@agentdesk/storage';

/** Whether resolving may create the portal end user's row (only when creating a resource). */
export type ResolveMode = 'read' | 'create';

/**
 * Resolves on whose behalf an own-data request acts, as a stored `users.id`:
 * a user key → its user; the dev-mode anonymous principal → the local dev user; a trusted portal
 * naming an end user → that end user in the portal's namespace (created on first write).
 * Resolution never grants access: every query is then scoped to the returned owner.
 */
@Injectable()
export class EffectiveUsers {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(ACCESS_CONTEXT) private readonly access: AccessContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The stored id of the effective user, or `null` for a portal end user never seen before (who
   * owns nothing yet). Throws 403 for a portal naming nobody or naming without being trusted, and
   * for a user key naming someone else; 400 for an invalid name.
   */
  async resolve(
    principal: Principal,
    requestedUserId: string | undefined,
    mode: ResolveMode,
    requestedUserName?: string,
    requestedUserNameSource: string = `header.${END_USER_NAME_HEADER}`,
  ): Promise<string | null> {
    const effective = this.named(principal, requestedUserId);
    this.checkNameSender(effective, requestedUserName, requestedUserNameSource);
    switch (effective.kind) {
      case 'user':
        return effective.userId;
      case 'anonymous':
        return this.devUserId();
      case 'portal-user': {
        const { users } = this.repositories;
        if (mode === 'create')
          return (
            await users.ensurePortalUser(effective.portalId, effective.externalUserId, requestedUserName)
          ).id;
        const known = await users.findByExternalId(effective.portalId, effective.externalUserId);
        if (known === undefined) return null;
        // A name sent with a later request (a message) follows a rename on the portal's side.
        return (await users.renamed(known, requestedUserName)).id;
      }
      case 'none':
        throw new ApiError(
          ApiErrorCode.EndUserRequired,
          `A portal key acts for one end user at a time: name it in the ${END_USER_HEADER} header (requires a trusted portal key)`,
        );
    }
  }

  /**
   * Who the request acts for, checked but not looked up: the part of `resolve` that needs no query.
   * Stateless routes use it as is (a portal naming nobody acts for nobody); it throws what `resolve`
   * throws for a name the caller may not use.
   */
  named(principal: Principal, requestedUserId: string | undefined): EffectiveUser {
    const effective = resolveEffectiveUserId(principal, requestedUserId);
    if (effective.kind === 'anonymous') this.devUserId();
    return effective;
  }

  /** Only a trusted portal naming its end user sends that user's display name: 400 otherwise. */
  checkNameSender(
    effective: EffectiveUser,
    requestedUserName: string | undefined,
    requestedUserNameSource: string = `header.${END_USER_NAME_HEADER}`,
  ): void {
    if (requestedUserName !== undefined && effective.kind !== 'portal-user')
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        `${requestedUserNameSource}: only a trusted portal naming its end user in ${END_USER_HEADER} sends a name`,
      );
  }

  private devUserId(): string {
    if (this.access.devUserId === null)
      throw new ApiError(ApiErrorCode.Unauthenticated, 'Dev mode is not enabled');
    return this.access.devUserId;
  }

  /**
   * Defence in depth after an owner-scoped query: the shared `can()` rule must agree that the
   * effective user may use this resource. A disagreement answers like a missing resource.
   */
  assertCan(
    principal: Principal,
    scope: Scope,
    resourceOwnerUserId: string,
    effectiveUserId: string,
    what: string,
  ): void {
    const devMode = this.config.auth.devMode;
    const allowed =
      principal.kind === 'anonymous'
        ? can(principal, scope, { ownerUserId: resourceOwnerUserId, devMode }) &&
          resourceOwnerUserId === effectiveUserId
        : can(principal, scope, { ownerUserId: resourceOwnerUserId, effectiveUserId, devMode });
    if (!allowed) throw notFoundError(what);
  }
}
