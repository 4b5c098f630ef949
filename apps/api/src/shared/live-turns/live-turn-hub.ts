import { randomUUID } from 'node:crypto';
import { liveTurnEventSchema, type LiveTurnEvent } from '@agentdesk/api-contract';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { SharedState } from '../../cluster/shared-state';
import { coalesceLiveEvents } from './coalesce-live-events';

/** Hears the events of one session's turns, in order. */
export type LiveTurnListener = (event: LiveTurnEvent) => void;

/** What a reader joining now has missed of the running turn (as far as this replica knows). */
export interface LiveTurnState {
  readonly turnId: string | null;
  readonly partialAnswers: { messageId: string; text: string }[];
}

/** One reader's subscription to a session; `close` stops the events (and the Redis channel when last). */
export interface LiveSubscription {
  close(): void;
}

/** How long events wait to go to Redis together (deltas of one answer are joined). */
const PUBLISH_BATCH_MS = 20;

interface SessionTurn {
  turnId: string | null;
  /** Streamed text of answers not yet stored, by message id. */
  readonly partials: Map<string, string>;
  /** Run by this process (kept until it ends), or heard from another replica (kept while someone here listens). */
  readonly origin: 'local' | 'remote';
}

const broadcastSchema = z.object({ origin: z.string(), events: z.array(liveTurnEventSchema) });
type Broadcast = z.infer<typeof broadcastSchema>;

/**
 * The live events of every session's running turn, for readers that follow a session (the console's
 * transcript). The turn runner publishes each event; readers of that session on this process hear it
 * at once. With Redis, events also go (batched every 20 ms, deltas joined) to the session's channel
 * `<prefix>:session-live:<id>`, which a replica subscribes to while one of its readers follows that
 * session, so a reader on any replica sees a turn running on another. Without Redis, only this
 * process's turns are seen (one process is the deployment). Nothing here is durable: the stored
 * transcript is the record, this is a view of it as it is written.
 */
export class LiveTurnHub {
  private readonly listeners = new Map<string, Set<LiveTurnListener>>();
  private readonly turns = new Map<string, SessionTurn>();
  private readonly outbox = new Map<string, LiveTurnEvent[]>();
  private readonly stopCallbacks = new Set<() => void>();
  private readonly origin = randomUUID();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly channelPrefix: string | undefined;

  constructor(
    private readonly state: SharedState,
    private readonly logger: Logger,
  ) {
    if (state.kind === 'redis') {
      this.channelPrefix = `${state.keyPrefix}:session-live:`;
      state.subscriber.on('message', (channel: string, payload: string) => this.received(channel, payload));
    }
  }

  /** Announces one event of a turn running in this process. Never throws, never waits. */
  publish(sessionId: string, event: LiveTurnEvent): void {
    this.track(sessionId, event, 'local');
    this.deliver(sessionId, event);
    if (this.state.kind !== 'redis') return;
    const queued = this.outbox.get(sessionId);
    if (queued === undefined) this.outbox.set(sessionId, [event]);
    else queued.push(event);
    if (event.type === 'turn-end') this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), PUBLISH_BATCH_MS).unref();
  }

  /** Forgets a turn of this process that ended without its last event (an exception of our own). */
  forget(sessionId: string, turnId: string): void {
    const turn = this.turns.get(sessionId);
    if (turn?.origin === 'local' && turn.turnId === turnId) this.turns.delete(sessionId);
  }

  /** What a reader joining now has missed of the running turn. */
  stateOf(sessionId: string): LiveTurnState {
    const turn = this.turns.get(sessionId);
    return {
      turnId: turn?.turnId ?? null,
      partialAnswers: [...(turn?.partials ?? [])].map(([messageId, text]) => ({ messageId, text })),
    };
  }

  /**
   * Follows a session. `joined` is what the listener missed of the running turn (taken at the
   * moment it was added, so nothing is in both). Resolves once events from every replica reach the
   * listener (the Redis channel is subscribed), so a snapshot read after it misses nothing.
   * `stopped` is called if the server stops while the reader follows.
   */
  async subscribe(
    sessionId: string,
    listener: LiveTurnListener,
    stopped: () => void,
  ): Promise<LiveSubscription & { readonly joined: LiveTurnState }> {
    let listeners = this.listeners.get(sessionId);
    const first = listeners === undefined;
    if (listeners === undefined) {
      listeners = new Set();
      this.listeners.set(sessionId, listeners);
    }
    listeners.add(listener);
    this.stopCallbacks.add(stopped);
    const joined = this.stateOf(sessionId);
    const close = () => {
      this.stopCallbacks.delete(stopped);
      this.unsubscribe(sessionId, listener);
    };
    if (first && this.state.kind === 'redis') {
      try {
        await this.state.subscriber.subscribe(this.channelOf(sessionId));
      } catch (error) {
        close();
        throw error;
      }
    }
    return { close, joined };
  }

  /** Ends every reader's feed (the server is stopping: open streams must not hold it up). */
  stopReaders(): void {
    for (const stopped of [...this.stopCallbacks]) stopped();
    this.stopCallbacks.clear();
  }

  /** Number of sessions followed by a reader of this process (for tests and metrics). */
  get followedSessions(): number {
    return this.listeners.size;
  }

  private unsubscribe(sessionId: string, listener: LiveTurnListener): void {
    const listeners = this.listeners.get(sessionId);
    if (listeners === undefined || !listeners.delete(listener) || listeners.size > 0) return;
    this.listeners.delete(sessionId);
    if (this.turns.get(sessionId)?.origin === 'remote') this.turns.delete(sessionId);
    if (this.state.kind === 'redis')
      this.state.subscriber.unsubscribe(this.channelOf(sessionId)).catch((error: unknown) => {
        this.logger.warn({ err: error, sessionId }, 'could not leave a live session channel in Redis');
      });
  }

  private deliver(sessionId: string, event: LiveTurnEvent): void {
    const listeners = this.listeners.get(sessionId);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) listener(event);
  }

  private track(sessionId: string, event: LiveTurnEvent, origin: SessionTurn['origin']): void {
    switch (event.type) {
      case 'turn-start':
        this.turns.set(sessionId, { turnId: event.turnId, partials: new Map(), origin });
        return;
      case 'text-delta': {
        let turn = this.turns.get(sessionId);
        if (turn === undefined) {
          turn = { turnId: null, partials: new Map(), origin };
          this.turns.set(sessionId, turn);
        }
        turn.partials.set(event.messageId, (turn.partials.get(event.messageId) ?? '') + event.text);
        return;
      }
      case 'message-complete':
        this.turns.get(sessionId)?.partials.delete(event.messageId);
        return;
      case 'turn-end':
        this.turns.delete(sessionId);
        return;
      case 'tool-call':
      case 'tool-result':
        return;
    }
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.state.kind !== 'redis') return;
    const { availability } = this.state;
    for (const [sessionId, events] of this.outbox) {
      const payload = JSON.stringify({
        origin: this.origin,
        events: coalesceLiveEvents(events),
      } satisfies Broadcast);
      const channel = this.channelOf(sessionId);
      availability
        .call((redis) => redis.publish(channel, payload))
        .catch((error: unknown) => {
          // Readers on other replicas miss these events; the stored transcript still has the turn.
          this.logger.debug({ err: error, sessionId }, 'could not publish live turn events to Redis');
        });
    }
    this.outbox.clear();
  }

  private received(channel: string, payload: string): void {
    if (this.channelPrefix === undefined || !channel.startsWith(this.channelPrefix)) return;
    const sessionId = channel.slice(this.channelPrefix.length);
    let parsed: ReturnType<typeof broadcastSchema.safeParse>;
    try {
      parsed = broadcastSchema.safeParse(JSON.parse(payload));
    } catch {
      return;
    }
    // This process's own events were delivered when they were published.
    if (!parsed.success || parsed.data.origin === this.origin) return;
    for (const event of parsed.data.events) {
      this.track(sessionId, event, 'remote');
      this.deliver(sessionId, event);
    }
  }

  private channelOf(sessionId: string): string {
    return `${this.channelPrefix ?? ''}${sessionId}`;
  }
}
