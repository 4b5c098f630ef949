import type { Principal } from '@agentdesk/authz';
import type { UsageSource, UsageStatus } from '@agentdesk/storage';

/**
 * For whom a call was made. Resolved to a stored `users.id` when the batch is written, never on
 * the request path: a portal's end user is named by the portal's own id for them and may need a
 * lookup, the dev-mode principal maps to the local user.
 */
export type MeteredEndUser =
  /** A stored user (an agent turn's session owner). */
  | { readonly kind: 'user'; readonly userId: string }
  /** The caller itself, or the end user a trusted portal named in `x-end-user-id`. */
  | { readonly kind: 'principal'; readonly principal: Principal; readonly namedUserId: string | undefined };

/** Who made a model call and with what, known before it runs. */
export interface ModelCallOrigin {
  readonly source: UsageSource;
  readonly model: string;
  readonly provider: string | null;
  readonly apiKeyId: string | null;
  readonly portalId: string | null;
  readonly endUser: MeteredEndUser | null;
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
