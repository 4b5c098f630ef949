import { resolveEffectiveUserId, type Principal } from '@agentdesk/authz';
import type { ActingEndUser } from '../../auth/effective-owner';
import type { ModelCallOrigin } from './metered-call';

/**
 * The origin of a `/v1/chat/completions` call: the caller's key and portal, and the end user the
 * route resolved (`NamedEndUser()`: the caller, or the one a trusted portal names).
 */
export function chatCompletionOrigin(
  caller: Principal,
  endUser: ActingEndUser,
  model: string,
  provider: string,
): ModelCallOrigin {
  return {
    source: 'chat-completion',
    model,
    provider,
    apiKeyId: caller.apiKeyId,
    portalId: caller.portalId,
    endUser: endUser.user,
    endUserName: endUser.displayName,
  };
}

/** The origin of one lab target: the admin running the lab is the end user. */
export function labTargetOrigin(actor: Principal, model: string, provider: string | null): ModelCallOrigin {
  return {
    source: 'lab-run',
    model,
    provider,
    apiKeyId: actor.apiKeyId,
    portalId: actor.portalId,
    // Naming nobody cannot be refused: the actor as itself (a portal acts for nobody).
    endUser: resolveEffectiveUserId(actor, undefined),
  };
}

/** The origin of the model calls of one agent turn: the session's owner and portal. */
export function agentTurnOrigin(turn: {
  readonly model: string;
  readonly provider: string;
  readonly apiKeyId: string | null;
  readonly portalId: string | null;
  readonly ownerUserId: string;
}): ModelCallOrigin {
  return {
    source: 'agent-turn',
    model: turn.model,
    provider: turn.provider,
    apiKeyId: turn.apiKeyId,
    portalId: turn.portalId,
    endUser: { kind: 'user', userId: turn.ownerUserId },
  };
}
