/** A model call (retries included) that did not finish within its deadline; it was cancelled. */
export class ModelCallTimeout extends Error {
  override readonly name = 'ModelCallTimeout';
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms (retries included); the call was cancelled`);
  }
}

/**
 * Runs `work` with a signal that aborts (reason: a `ModelCallTimeout`) after `timeoutMs`, and gives
 * up waiting at that moment even if `work` ignores the signal, so a hung provider cannot hold the
 * request. The SDK clients' own timeout bounds each attempt; this bounds the whole call.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const timeout = new ModelCallTimeout(timeoutMs);
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
  });
  try {
    const running = work(controller.signal);
    // Settles after the timeout won the race: nobody waits for it any more.
    running.catch(() => undefined);
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
