import { buildEventJsonSchema, type BuildEventJson } from '@agentdesk/api-contract';
import { createEventStreamParser } from '../../event-stream';

/** One SSE `data:` payload, checked against the contract; undefined when it is not a build event. */
export function parseBuildEvent(data: string): BuildEventJson | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = buildEventJsonSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The API's build log stream, re-emitted event by event after each event's data is checked against
 * the contract (anything else is dropped): the browser then reads the events without a schema.
 * Events pass as soon as they are complete, so the log still streams live.
 */
export function checkedBuildEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let emit: (text: string) => void = () => undefined;
  const feed = createEventStreamParser(({ data }) => {
    const event = parseBuildEvent(data);
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
