import type { EffectiveUser } from '@agentdesk/authz';
import type { UsageSource, UsageStatus } from '@agentdesk/storage';

/** Who made a model call and with what, known before it runs. */
export interface ModelCallOrigin {
  readonly source: UsageSource;
  readonly model: string;
  readonly provider: string | null;
  readonly apiKeyId: string | null;
  readonly portalId: string | null;
  /**
   * For whom, as the request resolved it (the one owner resolution). Turned into a stored
   * `users.id` when the batch is written, never on the request path: a portal end user may need a
   * lookup, the dev-mode principal maps to the local user.
   */
  readonly endUser: EffectiveUser;
  /** The display name a trusted portal sent for that end user (`X-End-User-Name`), stored with them. */
  readonly endUserName?: string | undefined;
}

/** Tokens a provider reported for one call (zero when it failed before reporting any). */
export interface MeteredTokens {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedInputTokens: number;
}

/** One model call outcome, as the hooks record it. */
export interface MeteredCall {
  /** Generated at the call: the idempotency key of the row. */
  readonly id: string;
  readonly occurredAt: number;
  readonly origin: ModelCallOrigin;
  readonly tokens: MeteredTokens;
  readonly latencyMs: number;
  readonly status: UsageStatus;
}

/** The tokens of a call that reported none. */
export const NO_TOKENS: MeteredTokens = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  thinkingTokens: 0,
  cachedInputTokens: 0,
});
