import { Inject, Injectable } from '@nestjs/common';
import type { UserContentPart } from '@agentdesk/providers';
import { ownerUserIdOrNotFound, type EffectiveOwner } from '../auth/effective-owner';
import { classifyModelFailure } from '../model-access/model-failure';
import { modelFailureToApiError } from '../model-access/model-failure-to-api-error';
import { AgentTurnRunner } from './turn/agent-turn-runner';
import type { TurnResult } from './turn/turn-types';
import type { TurnEventSink } from './turn/turn-events';
import type { SendMessageBody } from './turn-inputs';
import { requestFingerprint } from './request-fingerprint';

/** The route an `Idempotency-Key` on a message is bound to (part of its fingerprint). */
const SEND_MESSAGE_ROUTE = 'POST /v1/sessions/:id/messages';

export interface SendMessageInput {
  /** Resolved once per request by `@Owner()`. */
  readonly owner: EffectiveOwner;
  readonly sessionId: string;
  readonly body: SendMessageBody;
  readonly idempotencyKey?: string;
  readonly signal: AbortSignal;
  readonly stream: boolean;
}

/** Runs the turn for the effective owner (every query is scoped to it). */
@Injectable()
export class AgentTurnService {
  constructor(@Inject(AgentTurnRunner) private readonly runner: AgentTurnRunner) {}

  async run(input: SendMessageInput, emit: TurnEventSink): Promise<TurnResult> {
    // A portal end user never seen before owns no session.
    const ownerUserId = ownerUserIdOrNotFound(input.owner, 'Session');
    try {
      return await this.runner.run(
        {
          ownerUserId,
          sessionId: input.sessionId,
          content: input.body.content as string | UserContentPart[],
          ...(input.body.responseFormat && { responseFormat: input.body.responseFormat }),
          ...(input.idempotencyKey !== undefined && {
            idempotencyKey: input.idempotencyKey,
            // A reuse of the key with another body, session or mode is refused, not replayed.
            idempotencyFingerprint: requestFingerprint({
              route: SEND_MESSAGE_ROUTE,
              parameters: { id: input.sessionId },
              stream: input.stream,
              body: input.body,
            }),
          }),
          signal: input.signal,
          stream: input.stream,
          apiKeyId: input.owner.principal.apiKeyId,
        },
        emit,
      );
    } catch (error) {
      // A failed model call is recorded in the turn; what escapes is a refusal before it (routing).
      const failure = classifyModelFailure(error);
      if (failure.kind === 'internal') throw error;
      throw modelFailureToApiError(failure);
    }
  }
}
