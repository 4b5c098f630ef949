import { buildEventJsonSchema, type BuildEventJson } from '@agentdesk/api-contract';
import { checkedEventStream, parseEventData } from '../../event-stream';

/** One SSE `data:` payload, checked against the contract; undefined when it is not a build event. */
export function parseBuildEvent(data: string): BuildEventJson | undefined {
  return parseEventData(data, buildEventJsonSchema);
}

/** The API's build log stream, each event checked against the contract (the rest dropped). */
export function checkedBuildEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return checkedEventStream(body, buildEventJsonSchema);
}
