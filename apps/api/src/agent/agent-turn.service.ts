import { Inject, Injectable } from '@nestjs/common';
import type { UserContentPart } from '@agentdesk/providers';
import { EffectiveUsers } from '../auth/effective-users';
import { ApiError, ApiErrorCode, notFoundError } from '../errors/api-error';
import type { OwnDataCaller } from '../auth/own-data-caller';
import { ModelRoutingError } from '../model-access/model-router';
import { AgentTurnRunner, type TurnResult } from './turn/agent-turn-runner';
import type { TurnEventSink } from './turn/turn-events';
import type { SendMessageBody } from './turn-inputs';
import { requestFingerprint } from './request-fingerprint';

/** The route an `Idempotency-Key` on a message is bound to (part of its fingerprint). */
const SEND_MESSAGE_ROUTE = 'POST /v1/sessions/:id/messages';

export interface SendMessageInput {
  readonly caller: OwnDataCaller;
  readonly sessionId: string;
  readonly body: SendMessageBody;
  readonly idempotencyKey?: string;
  readonly signal: AbortSignal;
  readonly stream: boolean;
}

/** Resolves the effective user (the owner every query is scoped to) and runs the turn for them. */
@Injectable()
export class AgentTurnService {
  constructor(
    @Inject(EffectiveUsers) private readonly effectiveUsers: EffectiveUsers,
    @Inject(AgentTurnRunner) private readonly runner: AgentTurnRunner,
  ) {}

  async run(input: SendMessageInput, emit: TurnEventSink): Promise<TurnResult> {
    const ownerUserId = await this.effectiveUsers.resolve(
      input.caller.principal,
      input.caller.requestedUserId,
      'read',
    );
    // A portal end user never seen before owns no session.
    if (ownerUserId === null) throw notFoundError('Session');
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
        },
        emit,
      );
    } catch (error) {
      if (error instanceof ModelRoutingError) {
        throw new ApiError(
          error.failure.kind === 'unknown-model'
            ? ApiErrorCode.UnknownModel
            : ApiErrorCode.ProviderNotConfigured,
          error.message,
          { cause: error },
        );
      }
      throw error;
    }
  }
}
