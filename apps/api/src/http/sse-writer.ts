import type { ServerResponse } from 'node:http';
import { clientGoneSignal } from './client-gone';
import { formatSseFrame, SSE_HEARTBEAT, type SseFrame } from './sse-frame';

/** What a route decides about its event stream; the rest is the same for every stream. */
export interface SseWriterOptions<Item> {
  /** How one item goes on the wire: `namedJsonEvent` (`event:` + `data:`) or `jsonData` (bare `data:`, OpenAI). */
  readonly frame: (item: Item) => SseFrame;
  /** Headers sent besides the event-stream ones (the request id). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A comment line (`: keep-alive`) after this long without a write, so proxies and load balancers
   * keep an idle stream open. Absent: no heartbeat.
   */
  readonly heartbeatIntervalMs?: number;
}

/**
 * The one writer of Server-Sent Events (the agent turn, `/v1/chat/completions`, the sandbox build
 * log). Headers go out with the first item (or `open()`), so a failure found before it is still a
 * normal JSON error answer with its status. Once the client is gone nothing more is written and
 * `clientGone` is aborted. `write` resolves when the socket takes more (after 'drain' when its
 * buffer is full): a producer that can wait awaits it, so a slow client slows the producer instead
 * of filling memory.
 */
export class SseWriter<Item> {
  /** Aborted when the client goes away before the stream ended. */
  readonly clientGone: AbortSignal;
  #started = false;
  #heartbeat: NodeJS.Timeout | undefined;
  #drained: Promise<void> | undefined;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: SseWriterOptions<Item>,
  ) {
    this.clientGone = clientGoneSignal(response);
    response.once('close', () => this.#stopHeartbeat());
  }

  /** Whether the status line and headers were sent. */
  get started(): boolean {
    return this.#started;
  }

  /** Sends the status line and headers (once). */
  open(): void {
    if (this.#started) return;
    this.#started = true;
    this.response.writeHead(200, {
      ...this.options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies (nginx) would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    const interval = this.options.heartbeatIntervalMs;
    if (interval !== undefined) {
      this.#heartbeat = setTimeout(() => this.#beat(), interval);
      this.#heartbeat.unref();
    }
  }

  /** Sends one item (opening the stream first). Resolves when more may be written. */
  write(item: Item): Promise<void> {
    return this.writeAll([item]);
  }

  /** Sends items in one write (nothing, not even the headers, for none). Resolves when more may be written. */
  writeAll(items: readonly Item[]): Promise<void> {
    if (items.length === 0 || this.#gone()) return Promise.resolve();
    this.open();
    return this.#send(items.map((item) => formatSseFrame(this.options.frame(item))).join(''));
  }

  /**
   * Ends the stream. With `last` (OpenAI's `[DONE]` or in-stream error) the stream is opened if
   * needed and the frame is its last bytes, unless the client is gone; without, it just ends.
   */
  end(last?: SseFrame): void {
    this.#stopHeartbeat();
    if (last === undefined) {
      if (!this.response.writableEnded) this.response.end();
      return;
    }
    if (this.#gone()) return;
    this.open();
    this.response.end(formatSseFrame(last));
  }

  #gone(): boolean {
    return this.response.writableEnded || this.response.destroyed;
  }

  #send(text: string): Promise<void> {
    this.#heartbeat?.refresh();
    if (this.response.write(text)) return Promise.resolve();
    this.#drained ??= new Promise((resolve) => {
      const settle = (): void => {
        this.response.off('drain', settle);
        this.response.off('close', settle);
        this.#drained = undefined;
        resolve();
      };
      this.response.once('drain', settle);
      this.response.once('close', settle);
    });
    return this.#drained;
  }

  #beat(): void {
    if (this.#gone()) return;
    // A full buffer already keeps the connection busy; a beat would only add to it.
    if (!this.response.writableNeedDrain) this.response.write(SSE_HEARTBEAT);
    this.#heartbeat?.refresh();
  }

  #stopHeartbeat(): void {
    clearTimeout(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
