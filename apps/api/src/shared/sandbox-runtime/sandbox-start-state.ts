/** What `/readyz` and `/readyz/sandbox` report about the sandbox. */
export interface SandboxHealth {
  /**
   * `ready` once its start succeeded and the engine answers; `starting` while the first start runs
   * (a build can take minutes); `degraded` while the engine does not answer or the start failed
   * (`message` says which, with the error); `disabled` when turned off by configuration.
   */
  readonly status: 'ready' | 'starting' | 'degraded' | 'disabled';
  readonly engine: string;
  readonly message?: string;
}

/** Where the sandbox's background start stands. */
export type SandboxStartState =
  | { readonly phase: 'starting' }
  | { readonly phase: 'started' }
  | {
      readonly phase: 'failed';
      /** The last attempt's error. */
      readonly reason: string;
      /** Failed attempts in a row. */
      readonly attempts: number;
      readonly nextAttemptAt: number;
    };

/** The longest wait between two start attempts (unless the configured first wait is longer). */
export const maxStartRetryMs = 10 * 60_000;

/**
 * The wait after `failedAttempts` failures in a row: the configured wait, doubled after each
 * failure, capped at ten minutes — a base image that stays broken for a day costs a few hundred
 * attempts, not thousands.
 */
export function startRetryDelayMs(firstRetryMs: number, failedAttempts: number): number {
  const doublings = Math.min(Math.max(failedAttempts - 1, 0), 30);
  return Math.min(firstRetryMs * 2 ** doublings, Math.max(firstRetryMs, maxStartRetryMs));
}

/** The engine's answer to a ping: fine, or why not. */
export type EnginePing = { readonly answered: true } | { readonly answered: false; readonly error: string };

/** The sandbox's health from its start state and a ping of its engine (enabled sandboxes only). */
export function sandboxHealthOf(
  state: SandboxStartState,
  engine: string,
  ping: EnginePing,
  now: number,
): SandboxHealth {
  if (!ping.answered) {
    return { status: 'degraded', engine, message: `the Docker engine is unreachable: ${ping.error}` };
  }
  switch (state.phase) {
    case 'started':
      return { status: 'ready', engine };
    case 'starting':
      return {
        status: 'starting',
        engine,
        message: 'the sandbox is starting: ensuring its image and pins (a build can take minutes)',
      };
    case 'failed': {
      const retryInSeconds = Math.max(0, Math.ceil((state.nextAttemptAt - now) / 1000));
      return {
        status: 'degraded',
        engine,
        message:
          `the sandbox could not start (${state.attempts} attempt${state.attempts === 1 ? '' : 's'}, ` +
          `next in ${retryInSeconds} s): ${state.reason}`,
      };
    }
  }
}
