import type { Logger } from 'pino';
import { keyRevocationChannel, type SharedState } from './shared-state';

/** Called with the id of a revoked key, or `undefined` when revocations may have been missed. */
export type RevocationListener = (apiKeyId: string | undefined) => void;

/**
 * Tells every replica that a key was revoked, so caches of verified keys drop it at once. Through
 * Redis pub/sub on `<prefix>:api-key-revocations` (delivery within milliseconds); a process
 * without Redis only tells itself, and other processes rely on their cache's short TTL.
 *
 * Pub/sub delivers only to connected subscribers: when the subscriber connection drops, or Redis
 * stops answering in time while the connections stay open (a frozen server: nothing is delivered
 * then either), listeners hear `undefined` (forget everything) and `isLive` is false until it is
 * back, so a cache can stop trusting itself for as long as it might miss a message.
 */
export class KeyRevocations {
  private readonly listeners = new Set<RevocationListener>();

  constructor(
    private readonly state: SharedState,
    private readonly logger: Logger,
  ) {}

  /** Subscribes to the deployment's channel (no-op without Redis). */
  async start(): Promise<void> {
    if (this.state.kind !== 'redis') return;
    const { subscriber } = this.state;
    const channel = keyRevocationChannel(this.state.keyPrefix);
    subscriber.on('message', (received: string, apiKeyId: string) => {
      if (received === channel) this.notify(apiKeyId);
    });
    // Messages sent while disconnected are lost: forget on the way down and again once back
    // (ioredis re-subscribes before 'ready').
    subscriber.on('close', () => this.notify(undefined));
    subscriber.on('ready', () => this.notify(undefined));
    this.state.availability.onChange(() => this.notify(undefined));
    await subscriber.subscribe(channel);
  }

  /** True while a revocation anywhere reaches this process at once (always true without Redis: there is no elsewhere to hear from). */
  get isLive(): boolean {
    return (
      this.state.kind === 'process' ||
      (this.state.subscriber.status === 'ready' && this.state.availability.isAvailable)
    );
  }

  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Announces a revocation already stored in the database: this process forgets the key before
   * this returns, the others when the message arrives. A failed publish is logged, not thrown —
   * the revocation itself stands, and other replicas then refuse the key once their cache entry
   * expires (the TTL). While Redis is unavailable nothing is sent and nothing waits: a replica
   * stops trusting its cache within one probe (500 ms) of Redis going silent, and forgets it
   * when Redis answers again.
   */
  async announce(apiKeyId: string): Promise<void> {
    this.notify(apiKeyId);
    if (this.state.kind !== 'redis') return;
    try {
      const channel = keyRevocationChannel(this.state.keyPrefix);
      await this.state.availability.call((redis) => redis.publish(channel, apiKeyId));
    } catch (error) {
      this.logger.error(
        { err: error, apiKeyId },
        'could not broadcast a key revocation through Redis; other replicas refuse the key once their key cache expires',
      );
    }
  }

  private notify(apiKeyId: string | undefined): void {
    for (const listener of this.listeners) listener(apiKeyId);
  }
}
