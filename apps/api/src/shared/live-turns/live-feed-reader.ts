import type { LiveFeedEvent } from '@agentdesk/api-contract';
import { namedJsonEvent, type SseFrame } from '../../http/sse-frame';
import { coalesceLiveEvents } from './coalesce-live-events';

/** The part of the SSE writer a reader's feed uses. */
export interface LiveFeedSink {
  /** Resolves when the socket takes more (a slow client makes it wait). */
  writeAll(events: readonly LiveFeedEvent[]): Promise<void>;
  end(last?: SseFrame): void;
}

/** How far a reader may fall behind before it is dropped. */
export interface LiveBacklogLimits {
  readonly events: number;
  readonly characters: number;
}

/** About a minute of a fast model's deltas unread, joined per message: far more than a reader that keeps up holds. */
export const defaultLiveBacklogLimits: LiveBacklogLimits = { events: 1_000, characters: 1_000_000 };

/**
 * One reader's live feed: events are written as fast as the reader's socket takes them; while it
 * does not, they wait in a backlog (consecutive deltas of one answer joined). A reader whose
 * backlog passes the limits is dropped — its stream ends with a `dropped` event saying so — instead
 * of the server holding an unbounded backlog for it.
 */
export class LiveFeedReader {
  private backlog: LiveFeedEvent[] = [];
  private backlogCharacters = 0;
  private writing = false;
  private ended = false;

  constructor(
    private readonly sink: LiveFeedSink,
    private readonly onDropped: () => void,
    private readonly limits: LiveBacklogLimits = defaultLiveBacklogLimits,
  ) {}

  /** Whether the reader was dropped (or the feed ended). */
  get isEnded(): boolean {
    return this.ended;
  }

  push(event: LiveFeedEvent): void {
    if (this.ended) return;
    this.backlog.push(event);
    this.backlogCharacters += event.type === 'text-delta' ? event.text.length : JSON.stringify(event).length;
    if (this.backlog.length > this.limits.events) this.backlog = coalesceFeed(this.backlog);
    if (this.backlog.length > this.limits.events || this.backlogCharacters > this.limits.characters) {
      this.drop();
      return;
    }
    if (!this.writing) void this.pump();
  }

  /** Ends the feed (the reader left or the server stops). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.backlog = [];
    this.sink.end();
  }

  private drop(): void {
    this.ended = true;
    const unread = this.backlog.length;
    this.backlog = [];
    this.sink.end(
      namedJsonEvent('dropped', {
        type: 'dropped',
        reason: `This reader fell behind the turn by ${unread} events; the feed ended instead of holding more. Read the stored transcript, then follow again.`,
      }),
    );
    this.onDropped();
  }

  private async pump(): Promise<void> {
    this.writing = true;
    try {
      while (this.backlog.length > 0 && !this.ended) {
        const events = coalesceFeed(this.backlog);
        this.backlog = [];
        this.backlogCharacters = 0;
        await this.sink.writeAll(events);
      }
    } finally {
      this.writing = false;
    }
  }
}

/** Joins consecutive deltas; the snapshot and `dropped` events pass as they are. */
function coalesceFeed(events: readonly LiveFeedEvent[]): LiveFeedEvent[] {
  const joined: LiveFeedEvent[] = [];
  let run: Parameters<typeof coalesceLiveEvents>[0][number][] = [];
  for (const event of events) {
    if (event.type === 'snapshot' || event.type === 'dropped') {
      joined.push(...coalesceLiveEvents(run), event);
      run = [];
    } else run.push(event);
  }
  joined.push(...coalesceLiveEvents(run));
  return joined;
}
