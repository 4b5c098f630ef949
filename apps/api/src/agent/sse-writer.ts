import type { ServerResponse } from 'node:http';
import type { TurnEvent } from './turn/turn-events';

/**
 * Writes turn events as Server-Sent Events: `event: <type>` and one JSON `data:` line per event.
 * Headers go out with the first event, so errors found before the turn starts are still normal
 * JSON error answers.
 */
export class SseWriter {
  #started = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly headers: Record<string, string>,
  ) {}

  get started(): boolean {
    return this.#started;
  }

  write(event: TurnEvent): void {
    if (this.response.writableEnded || this.response.destroyed) return;
    if (!this.#started) {
      this.#started = true;
      this.response.writeHead(200, {
        ...this.headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies (nginx) would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      });
    }
    this.response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}
