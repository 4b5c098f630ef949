import { liveFeedEventSchema, type LiveFeedEvent } from '@agentdesk/api-contract';
import { checkedEventStream, parseEventData } from '../../event-stream';

/** One SSE `data:` payload checked against the contract; undefined when it is not a live feed event. */
export function parseLiveFeedEvent(data: string): LiveFeedEvent | undefined {
  return parseEventData(data, liveFeedEventSchema);
}

/** The API's live feed of a session, each event checked against the contract (the rest dropped). */
export function checkedLiveEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return checkedEventStream(body, liveFeedEventSchema);
}
