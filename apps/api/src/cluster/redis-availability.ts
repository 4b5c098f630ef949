import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { withinDeadline } from './redis-deadline';

/** Thrown instead of asking Redis while it is unavailable: the caller falls back at once. */
export class RedisSkippedError extends Error {
  override readonly name = 'RedisSkippedError';

  constructor() {
    super('Redis was not asked: it did not answer in time lately, or the connection is down');
  }
}

/**
 * How often Redis is probed with a PING: while it answers, so that a silent Redis (a frozen
 * process, a black-holed network) is noticed without waiting for traffic; while it does not, so
 * that its return is noticed. It bounds how long a replica trusts cached keys after Redis froze.
 */
const PROBE_INTERVAL_MS = 500;

/**
 * Whether this process asks Redis at all. A closed connection already fails commands at once; a
 * Redis that keeps the connection open but does not answer would make every caller wait. So every
 * call gets the deadline (`AGENTDESK_REDIS_COMMAND_TIMEOUT_MS`), and one missed deadline (or a
 * lost connection) makes Redis *unavailable*: calls are then refused at once, without a round trip,
 * and callers fall back to per-process behaviour until a probe answers within the deadline again.
 */
export class RedisAvailability {
  private available = true;
  private stopped = false;
  private probeInFlight = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(available: boolean) => void>();

  constructor(
    /** The commands connection (a connection in subscriber mode runs no commands but (un)subscribing). */
    readonly client: Redis,
    readonly deadlineMs: number,
    private readonly location: string,
    private readonly logger: Logger,
    private readonly probeIntervalMs: number = PROBE_INTERVAL_MS,
  ) {
    client.on('close', () => this.markUnavailable('the connection was lost'));
    client.on('ready', () => this.probe());
  }

  /** True while Redis answers within the deadline (as far as the last call or probe knows). */
  get isAvailable(): boolean {
    return this.available;
  }

  /**
   * Runs one command within the deadline; rejects with `RedisSkippedError` at once while Redis is
   * unavailable. An error reply (a script error, a wrong type) is an answer and changes nothing.
   */
  async call<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (!this.available) throw new RedisSkippedError();
    try {
      return await withinDeadline(command(this.client), this.deadlineMs);
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ReplyError')) this.markUnavailable(describe(error));
      throw error;
    }
  }

  /** Starts the periodic probe (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setInterval(() => this.probe(), this.probeIntervalMs);
    this.timer.unref();
  }

  /** Stops probing and reporting (before the connections close, so a shutdown is no outage). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.listeners.clear();
  }

  /** Told `false` when Redis becomes unavailable and `true` when it answers in time again. */
  onChange(listener: (available: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * One PING at a time: while Redis is frozen the unanswered one stays the only one (until the
   * connection's own command timeout drops it), instead of one more queued every interval. Only an
   * answer within the deadline makes Redis available again — a Redis that answers, but always
   * late, would otherwise flip back and forth and make callers wait each time.
   */
  private probe(): void {
    if (this.probeInFlight || this.stopped) return;
    this.probeInFlight = true;
    const ping = this.client.ping();
    withinDeadline(ping, this.deadlineMs).then(
      () => this.markAvailable(),
      (error: unknown) => this.markUnavailable(describe(error)),
    );
    ping.then(
      () => (this.probeInFlight = false),
      () => (this.probeInFlight = false),
    );
  }

  private markUnavailable(reason: string): void {
    if (!this.available || this.stopped) return;
    this.available = false;
    this.logger.warn(
      { redis: this.location, reason, deadlineMs: this.deadlineMs },
      'Redis is unavailable: rate limits count per process and cached keys are not trusted until it answers in time again',
    );
    this.notify(false);
  }

  private markAvailable(): void {
    if (this.available || this.stopped) return;
    this.available = true;
    this.logger.info({ redis: this.location }, 'Redis answers in time again: rate limits are shared again');
    this.notify(true);
  }

  private notify(available: boolean): void {
    for (const listener of this.listeners) listener(available);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
