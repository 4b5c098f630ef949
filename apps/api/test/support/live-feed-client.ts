/** One event read from a live feed: its `event:` name and parsed `data:`. */
export interface FeedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A Server-Sent Events stream read over a real socket, event by event, as the events arrive. */
export interface FeedClient {
  readonly status: number;
  readonly contentType: string | null;
  /** Every event received so far. */
  readonly events: FeedEvent[];
  /** Resolves with the first event (at or after `from`) that matches, waiting for it to arrive. */
  next(matches: (event: FeedEvent) => boolean, from?: number): Promise<FeedEvent>;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` with `Accept: text/event-stream` and reads events in the background. */
export async function openFeed(baseUrl: string, path: string, key: string): Promise<FeedClient> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: FeedEvent[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let finished = false;
  const ended = (async () => {
    if (response.body === null) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name !== undefined && data !== undefined)
            events.push({ event: name, data: JSON.parse(data) as Record<string, unknown> });
          end = buffer.indexOf('\n\n');
        }
        notify();
      }
    } catch {
      // Aborted by close().
    } finally {
      finished = true;
      notify();
    }
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    ended,
    next(matches, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(matches);
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (finished) {
            waiters.delete(check);
            reject(new Error(`the feed ended without the event; it had: ${JSON.stringify(events)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await ended;
    },
  };
}
