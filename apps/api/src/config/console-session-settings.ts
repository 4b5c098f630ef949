/** How long a console sign-in lasts (see `auth/console-session-authenticator.ts`). */
export interface ConsoleSessionSettings {
  /** A session not used for this long ends (`AGENTDESK_CONSOLE_SESSION_IDLE_MS`). */
  readonly idleTimeoutMs: number;
  /** A session ends this long after sign-in however much it is used (`AGENTDESK_CONSOLE_SESSION_MAX_MS`). */
  readonly absoluteTimeoutMs: number;
}

/** One idle hour; a working day in all (what the console's cookie allowed before sessions were kept). */
export const defaultConsoleSessionSettings: ConsoleSessionSettings = {
  idleTimeoutMs: 60 * 60 * 1000,
  absoluteTimeoutMs: 8 * 60 * 60 * 1000,
};

/**
 * How often a session's use is written (its last-seen time, and the idle expiry slid forward): at
 * most once a minute, and often enough that the idle timeout is honoured within a tenth of itself
 * (the expiry counts from the last written use).
 */
export function activityRecordIntervalMs(idleTimeoutMs: number): number {
  return Math.max(1, Math.min(60_000, Math.floor(idleTimeoutMs / 10)));
}
