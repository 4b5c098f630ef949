import { ProviderError } from '../errors/provider-error';
import type { ProviderName } from '../types/result';

/** How long a stream may stay silent (before its first chunk too) unless the caller says otherwise. */
export const defaultStreamIdleTimeoutMs = 60_000;

/**
 * Bounds the silence between stream chunks. The OpenAI and Anthropic SDKs stop their request
 * timeout once response headers arrive, so a provider that stalls mid-stream would otherwise hold
 * the call forever. Each attempt gets its own AbortController, linked to the caller's signal and
 * aborted when no chunk arrived for `idleMs`.
 */
export class StreamIdleGuard {
  #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;
  #lastChunkAt = 0;
  readonly #onCallerAbort = () => this.#controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly idleMs: number,
    private readonly callerSignal: AbortSignal | undefined,
  ) {}

  /** A fresh signal for one attempt; the idle clock starts now. */
  startAttempt(): AbortSignal {
    this.stop();
    this.#controller = new AbortController();
    this.#timedOut = false;
    if (this.callerSignal?.aborted) this.#controller.abort(this.callerSignal.reason);
    this.callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#lastChunkAt = performance.now();
    this.#schedule(this.idleMs);
    return this.#controller.signal;
  }

  /**
   * A chunk arrived. Only a timestamp is written per chunk (streams send hundreds); the timer
   * checks it when it fires and waits again for the rest of the limit.
   */
  touch(): void {
    this.#lastChunkAt = performance.now();
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      const silentFor = performance.now() - this.#lastChunkAt;
      if (silentFor < this.idleMs) return this.#schedule(this.idleMs - silentFor);
      this.#timedOut = true;
      this.#controller.abort();
    }, delayMs);
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  timeoutError(provider: ProviderName, cause: unknown): ProviderError {
    return new ProviderError({
      provider,
      status: undefined,
      code: 'timeout',
      message: `The stream sent nothing for ${this.idleMs} ms`,
      requestId: undefined,
      retryAfterMs: undefined,
      retryable: true,
      cause,
    });
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }
}
