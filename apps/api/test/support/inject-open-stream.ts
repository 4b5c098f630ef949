import type { InjectOptions } from 'fastify';
import type { AgentDeskApi } from '../../src/create-app';
import type { InjectResponse } from './test-api';

/** Routes whose success is an event stream that stays open until the client leaves (live feeds). */
export const openStreamRoutes: ReadonlySet<string> = new Set([
  'GET /v1/admin/sessions/:id/live',
  // A run's progress stays open until the run finishes.
  'GET /v1/qa/runs/:id/events',
]);

/**
 * Injects a request to a route whose success is an endless event stream (`inject` would wait for
 * its end forever): resolves once the head is sent. A 200 event stream is let go (the app's
 * shutdown ends it) with an empty body; any other answer's body is read whole.
 */
export async function injectOpenStream(
  app: AgentDeskApi['app'],
  options: InjectOptions,
): Promise<InjectResponse> {
  const head = await app.inject({ ...options, payloadAsStream: true });
  const stream = head.stream();
  const contentType = String(head.headers['content-type'] ?? '');
  if (head.statusCode === 200 && contentType.startsWith('text/event-stream')) {
    stream.destroy();
    // An open stream has no JSON body.
    return { ...head, rawPayload: Buffer.alloc(0), payload: '', body: '', json: <T>() => undefined as T };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  const text = Buffer.concat(chunks).toString('utf8');
  return {
    ...head,
    rawPayload: Buffer.concat(chunks),
    payload: text,
    body: text,
    json: <T>() => JSON.parse(text) as T,
  };
}
