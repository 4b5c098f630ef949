import { liveFeedEventSchema, type LiveFeedEvent } from '@agentdesk/api-contract';
import { createEventStreamParser } from '../../event-stream';

/** One SSE `data:` payload checked against the contract; undefined when it is not a live feed event. */
export function parseLiveFeedEvent(data: string): LiveFeedEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = liveFeedEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The API's live feed of a session, re-emitted event by event once each is checked against the
 * contract (anything else is dropped), so the browser reads it typed without a schema. Events pass
 * as soon as they are complete: the text still streams.
 */
export function checkedLiveEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let emit: (text: string) => void = () => undefined;
  const feed = createEventStreamParser(({ data }) => {
    const event = parseLiveFeedEvent(data);
    if (event !== undefined) emit(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        emit = (text) => controller.enqueue(encoder.encode(text));
        feed(decoder.decode(chunk, { stream: true }));
      },
      flush(controller) {
        emit = (text) => controller.enqueue(encoder.encode(text));
        feed(decoder.decode());
      },
    }),
  );
}
