import type { ServerResponse } from 'node:http';
import { namedJsonEvent, type SseFrame } from '../http/sse-frame';
import { SseWriter } from '../http/sse-writer';
import type { BuildLogSource } from './sandbox-admin.service';

/** `event: <the event's type>` (`message` for an event without one) and the event as JSON. */
function buildEventFrame(event: unknown): SseFrame {
  const type = (event as { type?: unknown }).type;
  return namedJsonEvent(typeof type === 'string' ? type : 'message', event);
}

/**
 * Writes a build's log as Server-Sent Events (`event: <type>`, one JSON `data:` line): the whole
 * log from the start, then — while the build runs in this process — each new event until
 * `build-end`. A viewer arriving late sees exactly what an early one saw. No heartbeat: a build
 * writes lines often enough.
 */
export async function streamBuildLog(
  response: ServerResponse,
  headers: Record<string, string>,
  source: BuildLogSource,
): Promise<void> {
  const writer = new SseWriter<unknown>(response, { frame: buildEventFrame, headers });
  writer.open();
  if (source.kind === 'stored') {
    // A stored log can be long: each event waits until a slow client took the previous ones.
    for (const event of source.events) await writer.write(event);
    if (source.runningElsewhere) {
      await writer.write({
        type: 'build-running-elsewhere',
        at: Date.now(),
        message: 'this build runs in another API process; its log is stored when it ends',
      });
    }
    writer.end();
    return;
  }
  // A live build does not wait for its viewers: the socket's buffer holds what one has not read.
  const unsubscribe = source.subscribe((event) => void writer.write(event));
  writer.clientGone.addEventListener('abort', unsubscribe, { once: true });
  await source.done;
  unsubscribe();
  writer.end();
}
