import { createEventStreamParser } from './server-sent-events';

/** How a followed stream ended without an error: the server closed it, or it never was a stream. */
export type RelayedStreamEnd = 'ended' | 'unavailable';

export interface RelayedEventHandlers<Event> {
  /** The answer is an event stream: events may follow. */
  onOpen(): void;
  /** One event, as soon as it is complete. */
  onEvent(event: Event): void;
}

/**
 * Follows one of the console's relays of an API event stream from the browser: each event's JSON
 * data goes to `onEvent` as it arrives (the relay's route handler already checked it against the
 * contract, so it is only parsed here; data that is not JSON is skipped). Resolves `unavailable`
 * when the answer is not an event stream (an error status, a JSON answer) and `ended` when the
 * server closed the stream; rejects when the connection breaks or `signal` aborts.
 */
export async function followRelayedEvents<Event>(
  url: string,
  signal: AbortSignal,
  handlers: RelayedEventHandlers<Event>,
): Promise<RelayedStreamEnd> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (!response.ok || !isStream || response.body === null) {
    await response.body?.cancel();
    return 'unavailable';
  }
  handlers.onOpen();
  const feed = createEventStreamParser(({ data }) => {
    let event: Event;
    try {
      event = JSON.parse(data) as Event;
    } catch {
      return;
    }
    handlers.onEvent(event);
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return 'ended';
    feed(value);
  }
}
