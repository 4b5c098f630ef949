import type { ServerResponse } from 'node:http';
import type { LiveFeedEvent, LiveTurnEvent } from '@agentdesk/api-contract';
import type { Session } from '@agentdesk/storage';
import { namedJsonEvent } from '../http/sse-frame';
import { SseWriter } from '../http/sse-writer';
import { LiveFeedReader } from '../shared/live-turns/live-feed-reader';
import type { LiveTurnHub } from '../shared/live-turns/live-turn-hub';

/** A comment line this often keeps proxies from closing a feed while no turn runs. */
export const LIVE_FEED_HEARTBEAT_MS = 15_000;

export interface SessionLiveFeedOptions {
  readonly hub: LiveTurnHub;
  readonly sessionId: string;
  /** Reads the session again once subscribed: its last message seq is where the feed starts. */
  readonly readSession: () => Promise<Session>;
  readonly headers: Record<string, string>;
}

/**
 * Streams one session's live events to one reader until the reader leaves: first a `snapshot`
 * (the stored message seq the feed starts after, and what the running turn had streamed before),
 * then every event of its turns. Subscribing comes before reading the seq, so a message stored
 * after that seq has all its events on the feed; events may also name messages at or before it
 * (the reader keys them by message id).
 */
export async function streamSessionLiveFeed(
  response: ServerResponse,
  options: SessionLiveFeedOptions,
): Promise<void> {
  const writer = new SseWriter<LiveFeedEvent>(response, {
    frame: (event) => namedJsonEvent(event.type, event),
    headers: options.headers,
    heartbeatIntervalMs: LIVE_FEED_HEARTBEAT_MS,
  });
  writer.open();
  let closeSubscription = (): void => undefined;
  const reader = new LiveFeedReader(writer, () => closeSubscription());
  // Events that arrive before the snapshot is written wait behind it.
  const early: LiveTurnEvent[] = [];
  let deliver = (event: LiveTurnEvent): void => void early.push(event);
  const subscription = await options.hub.subscribe(
    options.sessionId,
    (event) => deliver(event),
    () => reader.end(),
  );
  closeSubscription = subscription.close;
  try {
    const session = await options.readSession();
    reader.push({
      type: 'snapshot',
      sessionId: options.sessionId,
      afterSeq: session.messageCount,
      turnId: subscription.joined.turnId,
      partialAnswers: subscription.joined.partialAnswers,
    });
    for (const event of early) reader.push(event);
    deliver = (event) => reader.push(event);
    await endOf(writer.clientGone, response);
  } finally {
    subscription.close();
    reader.end();
  }
}

/** Resolves when the reader left, was dropped, or the server stopped. */
function endOf(clientGone: AbortSignal, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.writableEnded || clientGone.aborted) resolve();
    response.once('finish', () => resolve());
    response.once('close', () => resolve());
  });
}
