import { STATUS_CODES, type ServerResponse } from 'node:http';

// Node has no reason phrase for 529; the Gemini SDK puts the phrase into its error messages.
const extraReasonPhrases: Record<number, string> = {
  529: 'Site is overloaded',
  499: 'Client Closed Request',
};

/** The reason phrase for a status line. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? extraReasonPhrases[status] ?? 'Unknown';
}

/** Sends a complete JSON response with `content-type: application/json` and an exact length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  if (response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, reasonPhrase(status), {
    ...headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Starts an SSE response. With `flush`, the headers go out at once so clients see the status
 * before a delayed or faulty body; without it they leave with the first write (one syscall).
 */
export function startEventStream(
  response: ServerResponse,
  headers: Record<string, string>,
  contentType = 'text/event-stream; charset=utf-8',
  flush = true,
): void {
  response.writeHead(200, reasonPhrase(200), {
    ...headers,
    'content-type': contentType,
    'cache-control': 'no-cache',
  });
  if (flush) response.flushHeaders();
}

/**
 * Waits `milliseconds`; resolves false early when the response closes (client abort or emulator
 * shutdown) so a delayed reply never writes to a dead socket and no timer outlives the server.
 */
export function waitUnlessClosed(response: ServerResponse, milliseconds: number): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (milliseconds <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(!response.destroyed);
    }, milliseconds);
    response.once('close', onClose);
  });
}
