import { Inject, Injectable } from '@nestjs/common';
import type { UserContentPart } from '@agentdesk/providers';
import { ownerUserIdOrNotFound, type EffectiveOwner } from '../auth/effective-owner';
import { classifyModelFailure } from '../model-access/model-failure';
import { modelFailureToApiError } from '../model-access/model-failure-to-api-error';
import { LiveTurnHub } from '../shared/live-turns/live-turn-hub';
import { toLiveTurnEvent } from './turn/live-turn-event';
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

/**
 * Runs the turn for the effective owner (every query is scoped to it); its events go to the caller
 * and, live, to whoever follows the session (the console's transcript).
 */
@Injectable()
export class AgentTurnService {
  constructor(
    @Inject(AgentTurnRunner) private readonly runner: AgentTurnRunner,
    @Inject(LiveTurnHub) private readonly live: LiveTurnHub,
  ) {}

  async run(input: SendMessageInput, callerSink: TurnEventSink): Promise<TurnResult> {
    // A portal end user never seen before owns no session.
    const ownerUserId = ownerUserIdOrNotFound(input.owner, 'Session');
    let startedTurnId: string | undefined;
    const emit: TurnEventSink = (event) => {
      if (event.type === 'turn-start') startedTurnId = event.turnId;
      const live = toLiveTurnEvent(event);
      if (live !== undefined) this.live.publish(input.sessionId, live);
      callerSink(event);
    };
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
    } finally {
      // Another request's turn (refused with 409) must not clear the running one's state.
      if (startedTurnId !== undefined) this.live.forget(input.sessionId, startedTurnId);
    }
  }
}
