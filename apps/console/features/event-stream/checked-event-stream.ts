import { createEventStreamParser } from './server-sent-events';

/** What checks one event's data: a contract schema's `safeParse`. */
export interface EventDataSchema<Event> {
  safeParse(value: unknown): { success: true; data: Event } | { success: false };
}

/** One SSE `data:` payload checked against a schema; undefined when it is not such an event. */
export function parseEventData<Event>(data: string, schema: EventDataSchema<Event>): Event | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * An API event stream re-emitted event by event once each event's data is checked against the
 * contract (anything else is dropped), so the browser reads it typed without a schema. Events pass
 * as soon as they are complete: the stream stays live.
 */
export function checkedEventStream<Event extends { type: string }>(
  body: ReadableStream<Uint8Array>,
  schema: EventDataSchema<Event>,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let emit: (text: string) => void = () => undefined;
  const feed = createEventStreamParser(({ data }) => {
    const event = parseEventData(data, schema);
    if (event !== undefined)
      emit(`event: ${event.type.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        emit = (text) => controller.enqueue(encoder.encode(text));
        // `stream: true` keeps a character cut between two chunks for the next one.
        feed(decoder.decode(chunk, { stream: true }));
      },
      flush(controller) {
        emit = (text) => controller.enqueue(encoder.encode(text));
        feed(decoder.decode());
      },
    }),
  );
}
