/** How a wait reports and how patient it is. */
export interface WaitOptions {
  /** Probes before giving up (default 400). */
  readonly attempts?: number;
  /** Pause between probes (default 25 ms). */
  readonly intervalMs?: number;
  /** What the test saw when the deadline passed, printed in the error: a failed wait says why. */
  readonly state?: () => unknown;
}

/**
 * Polls `probe` until it returns a value; throws after `attempts` tries, naming what it waited for
 * and the state `options.state` describes. Tests wait on outcomes, never on a fixed sleep; patience
 * counts probes, not clock time, so a loaded machine (slower probes) waits longer. (The lib's copy
 * of apps/api/test/support/wait-for.ts: libs never import apps.)
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  options: WaitOptions = {},
): Promise<T> {
  const { attempts = 400, intervalMs = 25, state } = options;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  let seen = '';
  if (state !== undefined) {
    try {
      seen = `\nstate seen at the deadline: ${JSON.stringify(await state(), null, 2)}`;
    } catch (error) {
      seen = `\nthe state could not be read: ${String(error)}`;
    }
  }
  throw new Error(`timed out waiting for ${what} (${attempts} probes, ${intervalMs} ms apart)${seen}`);
}
