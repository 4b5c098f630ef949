/** A Redis call that did not answer within its deadline (the connection may still look open). */
export class RedisDeadlineError extends Error {
  override readonly name = 'RedisDeadlineError';

  constructor(readonly deadlineMs: number) {
    super(`Redis did not answer within ${deadlineMs} ms`);
  }
}

/**
 * Settles like `work`, or rejects with `RedisDeadlineError` once `deadlineMs` passed without an
 * answer. The command itself is not cancelled (Redis has no such thing): its late answer is dropped.
 *
 * A timer that fires late because this process was busy (a long synchronous task, a GC pause)
 * must not blame Redis for an answer already waiting in the socket: the verdict is deferred by one
 * `setImmediate`, which runs after the event loop has read pending I/O.
 */
export function withinDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new RedisDeadlineError(deadlineMs));
      });
    }, deadlineMs);
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
