import type { ProviderName, RecordedRequest } from '../types';

/** Keeps the newest `capacity` requests in a ring buffer, so long load runs use bounded memory. */
export class RequestRecorder {
  readonly #capacity: number;
  #slots: RecordedRequest[] = [];
  /** Index of the oldest record once the buffer has wrapped. */
  #start = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  record(request: RecordedRequest): void {
    if (this.#capacity === 0) return;
    if (this.#slots.length < this.#capacity) {
      this.#slots.push(request);
      return;
    }
    this.#slots[this.#start] = request;
    this.#start = (this.#start + 1) % this.#capacity;
  }

  /** Oldest first. */
  all(): RecordedRequest[] {
    return [...this.#slots.slice(this.#start), ...this.#slots.slice(0, this.#start)];
  }

  last(provider?: ProviderName): RecordedRequest | undefined {
    const count = this.#slots.length;
    for (let offset = 1; offset <= count; offset++) {
      const request = this.#slots[(this.#start - offset + count) % count];
      if (request !== undefined && (provider === undefined || request.provider === provider)) return request;
    }
    return undefined;
  }

  clear(): void {
    this.#slots = [];
    this.#start = 0;
  }
}
