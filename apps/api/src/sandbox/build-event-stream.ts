import type { ServerResponse } from 'node:http';
import type { BuildLogSource } from './sandbox-admin.service';

/**
 * Writes a build's log as Server-Sent Events (`event: <type>`, one JSON `data:` line): the whole
 * log from the start, then — while the build runs in this process — each new event until
 * `build-end`. A viewer arriving late sees exactly what an early one saw.
 */
export async function streamBuildLog(
  response: ServerResponse,
  headers: Record<string, string>,
  source: BuildLogSource,
): Promise<void> {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const write = (event: unknown): void => {
    if (response.writableEnded || response.destroyed) return;
    const type = (event as { type?: unknown }).type;
    response.write(
      `event: ${typeof type === 'string' ? type : 'message'}\ndata: ${JSON.stringify(event)}\n\n`,
    );
  };
  if (source.kind === 'stored') {
    for (const event of source.events) write(event);
    if (source.runningElsewhere) {
      write({
        type: 'build-running-elsewhere',
        at: Date.now(),
        message: 'this build runs in another API process; its log is stored when it ends',
      });
    }
    response.end();
    return;
  }
  const unsubscribe = source.subscribe(write);
  response.once('close', unsubscribe);
  await source.done;
  unsubscribe();
  if (!response.writableEnded) response.end();
}
