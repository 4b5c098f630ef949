import { inspect } from 'node:util';

const redacted = '[redacted]';

/**
 * A configuration value that must never be logged or serialized: `String()`, `JSON.stringify`,
 * `console.log` and pino all see `[redacted]`; only `reveal()` returns the value.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The actual value; call it only where the value is used, never to log it. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return redacted;
  }

  toJSON(): string {
    return redacted;
  }

  [inspect.custom](): string {
    return redacted;
  }
}
