import type { EffectiveUser, Principal } from '@agentdesk/authz';
import { Inject, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { notFoundError } from '../errors/api-error';
import { EffectiveUsers, type ResolveMode } from './effective-users';
import { Caller, type CallerOptions, type OwnDataCaller } from './own-data-caller';

/** The user an own-data request acts for, resolved once per request before the handler runs. */
export interface EffectiveOwner {
  readonly principal: Principal;
  /**
   * The stored `users.id` every query is scoped to: the key's user, the dev-mode user, or the
   * portal's named end user. Null for a portal end user never seen before, who owns nothing yet.
   */
  readonly ownerUserId: string | null;
}

/** Resolves the caller's effective owner; the decorator's data says whether it may create the end user. */
@Injectable()
export class EffectiveOwnerPipe implements PipeTransform<OwnDataCaller, Promise<EffectiveOwner>> {
  constructor(@Inject(EffectiveUsers) private readonly effectiveUsers: EffectiveUsers) {}

  async transform(caller: OwnDataCaller, metadata: ArgumentMetadata): Promise<EffectiveOwner> {
    const options = metadata.data as CallerOptions | undefined;
    const mode: ResolveMode = options?.mode === 'create' ? 'create' : 'read';
    const ownerUserId = await this.effectiveUsers.resolve(
      caller.principal,
      caller.requestedUserId,
      mode,
      caller.requestedUserName,
      caller.requestedUserNameSource,
    );
    return { principal: caller.principal, ownerUserId };
  }
}

/**
 * Handler parameter: the effective owner (see `EffectiveOwner`). `'create'` on routes that create
 * a resource, so a portal's new end user gets a row; every other route only looks the owner up.
 * `endUserNameInBody`: the route's body has an `endUserName` field (`endUserNameBodyField`), read
 * with the `X-End-User-Name` header's rules.
 * Throws 403 for a portal naming nobody or a user key naming someone else, 400 for a bad name.
 */
export const Owner = (
  mode: ResolveMode = 'read',
  options: { readonly endUserNameInBody?: boolean } = {},
): ParameterDecorator => Caller({ mode, ...options } satisfies CallerOptions, EffectiveOwnerPipe);

/** Whom a stateless request acts for, and the display name a trusted portal sent for them. */
export interface ActingEndUser {
  readonly user: EffectiveUser;
  readonly displayName: string | undefined;
}

/** Checks who a stateless request acts for, and the name sent for them, with no query (see `EffectiveUsers.named`). */
@Injectable()
export class NamedEndUserPipe implements PipeTransform<OwnDataCaller, ActingEndUser> {
  constructor(@Inject(EffectiveUsers) private readonly effectiveUsers: EffectiveUsers) {}

  transform(caller: OwnDataCaller): ActingEndUser {
    const user = this.effectiveUsers.named(caller.principal, caller.requestedUserId);
    this.effectiveUsers.checkNameSender(user, caller.requestedUserName, caller.requestedUserNameSource);
    return { user, displayName: caller.requestedUserName };
  }
}

/**
 * Handler parameter of a stateless route (nothing stored for the user): whom the request acts for,
 * and the `X-End-User-Name` sent for them, with the same header rules and refusals as `Owner()` —
 * but a portal naming nobody acts for nobody (`none`), and a portal end user is not looked up (the
 * usage meter does that, storing the name, off the request path).
 */
export const NamedEndUser = (): ParameterDecorator => Caller(undefined, NamedEndUserPipe);

/** The owner to scope queries to; an unknown portal end user owns nothing, so any id is "not found". */
export function ownerUserIdOrNotFound(owner: EffectiveOwner, what: string): string {
  if (owner.ownerUserId === null) throw notFoundError(what);
  return owner.ownerUserId;
}
