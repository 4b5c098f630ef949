import type { ToolRegistry } from '@agentdesk/agent-tools';
import type { TurnError } from '@agentdesk/api-contract';
import type { ChatCompletionResult, ResponseFormat, UserContentPart } from '@agentdesk/providers';
import type { CallCost, Message, Repositories, TokenUsage } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { TurnSettings } from '../../config/turn-settings';
import type { ModelRouter, ResolvedModel } from '../../model-access/model-router';
import type { ModelCallOrigin } from '../../shared/metering/metered-call';
import type { UsageMeter } from '../../shared/metering/usage-meter';
import type { TurnLeaseHeartbeat } from './turn-lease-heartbeat';

/** One user message to answer. */
export interface TurnInput {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly content: string | readonly UserContentPart[];
  readonly responseFormat?: ResponseFormat;
  readonly idempotencyKey?: string;
  /** Hash of the request the key came with: the same key with another fingerprint is refused (422). */
  readonly idempotencyFingerprint?: string;
  /** Aborted when the client goes away: the provider call is cancelled and what was produced is kept. */
  readonly signal: AbortSignal;
  /** Stream the model's output as events (SSE clients); otherwise one call per step. */
  readonly stream: boolean;
  /** The API key the turn was asked with, for usage metering. */
  readonly apiKeyId?: string | null;
}

/** How a turn ended, with every message it wrote (user message first). */
export interface TurnResult {
  /** The turn's id: its user message's, the same in a replay as in the original answer. */
  readonly turnId: string;
  readonly status: 'complete' | 'failed';
  /** True when an `Idempotency-Key` matched an earlier request: nothing ran, the earlier turn is returned. */
  readonly replayed: boolean;
  readonly messages: readonly Message[];
  readonly error?: TurnError;
  /** Validated JSON of the final answer, when a response format asked for it. */
  readonly json?: unknown;
  readonly validation?: ChatCompletionResult['validation'];
}

export interface AgentTurnRunnerDependencies {
  readonly repositories: Repositories;
  readonly router: ModelRouter;
  readonly tools: ToolRegistry;
  readonly settings: TurnSettings;
  /**
   * Where lease takeovers, renewal problems and exceptions of our own are logged (the transcript and
   * the client get a generic message); silent when omitted.
   */
  readonly logger?: Logger;
  /** Where every model call of a turn is metered; none in unit tests of the runner. */
  readonly usageMeter?: UsageMeter;
}

/** What one running turn carries from step to step. */
export interface TurnState {
  readonly heartbeat: TurnLeaseHeartbeat;
  readonly turnId: string;
  readonly resolved: ResolvedModel;
  /** Who and what every model call of this turn is metered as. */
  readonly usageOrigin: ModelCallOrigin;
  /** What an answer's usage cost, added to the session's cost (none without a meter: unit tests). */
  readonly costOf?: (usage: TokenUsage) => CallCost;
  /** Set once the turn's last write gave the lease back (the final `release` is then skipped). */
  leaseReleased: boolean;
}
