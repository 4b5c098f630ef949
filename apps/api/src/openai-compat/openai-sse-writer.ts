import type { ServerResponse } from 'node:http';
import type { OpenAIErrorBody } from './openai-error';

/**
 * Writes a Chat Completions stream the way OpenAI does: `data: <chunk>\n\n` per chunk and
 * `data: [DONE]\n\n` at the end, no `event:` lines. Headers go out with the first chunk, so a
 * failure before it is still a normal JSON error answer with its status.
 */
export class OpenAISseWriter {
  #started = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly headers: Record<string, string>,
  ) {}

  get started(): boolean {
    return this.#started;
  }

  /** Sends the status line and headers (once). */
  open(): void {
    if (this.#started) return;
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

  write(chunks: readonly object[]): void {
    if (chunks.length === 0 || this.response.writableEnded || this.response.destroyed) return;
    this.open();
    this.response.write(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''));
  }

  /** OpenAI's in-stream error: SDKs raise it as an API error. No `[DONE]` follows. */
  fail(error: OpenAIErrorBody): void {
    if (this.response.writableEnded || this.response.destroyed) return;
    this.open();
    this.response.end(`data: ${JSON.stringify(error)}\n\n`);
  }

  done(): void {
    if (this.response.writableEnded || this.response.destroyed) return;
    this.open();
    this.response.end('data: [DONE]\n\n');
  }

  /** Ends without a terminator (the client is gone). */
  close(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}
