import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followRelayedEvents } from './follow-relayed-events';

type Event = { type: string; n?: number };

const servers: Server[] = [];

/** A local server (closed after the test) answering every request with `answer`; its URL. */
async function serve(answer: (response: ServerResponse) => void): Promise<string> {
  const server = createServer((_request, response) => answer(response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

describe('following a relayed event stream', () => {
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('opens, passes each event’s JSON data as it arrives (skipping data that is not JSON) and ends with the stream', async () => {
    const url = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: snapshot\ndata: {"type":"snapshot","n":1}\n\n');
      response.write('data: not json\n\n');
      // An event split across chunks arrives once, complete.
      response.write('data: {"type":"cel');
      response.end('ls","n":2}\n\n');
    });
    const seen: string[] = [];
    const end = await followRelayedEvents<Event>(url, new AbortController().signal, {
      onOpen: () => seen.push('open'),
      onEvent: (event) => seen.push(`${event.type} ${event.n}`),
    });
    expect(end).toBe('ended');
    expect(seen).toEqual(['open', 'snapshot 1', 'cells 2']);
  });

  it('is unavailable without opening when the answer is an error or not an event stream', async () => {
    for (const [status, contentType] of [
      [403, 'application/json'],
      [200, 'application/json'],
      [503, 'text/event-stream'],
    ] as const) {
      const url = await serve((response) => {
        response.writeHead(status, { 'content-type': contentType });
        response.end(contentType === 'application/json' ? '{"message":"no"}' : 'data: {"type":"x"}\n\n');
      });
      const seen: string[] = [];
      const end = await followRelayedEvents<Event>(url, new AbortController().signal, {
        onOpen: () => seen.push('open'),
        onEvent: (event) => seen.push(event.type),
      });
      expect({ status, contentType, end, seen }).toEqual({
        status,
        contentType,
        end: 'unavailable',
        seen: [],
      });
    }
  });

  it('rejects when the signal aborts an open stream', async () => {
    const url = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"type":"snapshot"}\n\n');
    });
    const abort = new AbortController();
    const following = followRelayedEvents<Event>(url, abort.signal, {
      onOpen: () => undefined,
      onEvent: () => abort.abort(),
    });
    await expect(following).rejects.toThrow();
  });
});
