/** How a wait reports and how patient it is. */
export interface WaitOptions {
  /** Probes before giving up, 25 ms apart (default 400: ten seconds on a quiet machine). */
  readonly attempts?: number;
  /** What the test saw when the deadline passed, printed in the error: a failed wait says why. */
  readonly state?: () => unknown;
}

/**
 * Polls `probe` every 25 ms until it returns a value; throws after `attempts` tries, naming what it
 * waited for and the state `options.state` describes. Tests wait on outcomes, never on a fixed
 * sleep; patience counts probes, not clock time. (The lib's copy of apps/api/test/support/wait-for.ts:
 * libs never import apps.)
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  options: number | WaitOptions = {},
): Promise<T> {
  const { attempts = 400, state } = typeof options === 'number' ? { attempts: options } : options;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  let seen = '';
  if (state !== undefined) {
    try {
      seen = `\nstate seen at the deadline: ${JSON.stringify(await state(), null, 2)}`;
    } catch (error) {
      seen = `\nthe state could not be read: ${String(error)}`;
    }
  }
  throw new Error(`timed out waiting for ${what} (${attempts} probes)${seen}`);
}
