import type { Principal } from '@agentdesk/authz';
import type { FastifyRequest } from 'fastify';
import { END_USER_HEADER } from '../../auth/effective-users';
import type { ModelCallOrigin } from './metered-call';

/**
 * The origin of a `/v1/chat/completions` call: the key and portal of the caller, and the end user
 * (the caller, or the one a trusted portal names in `x-end-user-id`), resolved at write time.
 * Reads two request fields; nothing is looked up here.
 */
export function chatCompletionOrigin(
  request: FastifyRequest,
  model: string,
  provider: string,
): ModelCallOrigin {
  const principal = request.principal;
  if (principal === undefined)
    return { source: 'chat-completion', model, provider, apiKeyId: null, portalId: null, endUser: null };
  const named = request.headers[END_USER_HEADER];
  return {
    source: 'chat-completion',
    model,
    provider,
    apiKeyId: principal.apiKeyId,
    portalId: principal.portalId,
    endUser: { kind: 'principal', principal, namedUserId: typeof named === 'string' ? named : undefined },
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
    endUser: { kind: 'principal', principal: actor, namedUserId: undefined },
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
