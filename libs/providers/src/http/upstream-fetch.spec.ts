import fc from 'fast-check';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/support/wait-for';
import { upstreamHttp, type UpstreamHttp } from './upstream-fetch';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly socket: Socket;
}

/** A real HTTP server on 127.0.0.1 that records what it receives and answers with `handler`. */
async function startServer(
  handler: (received: Received, response: ServerResponse) => void,
): Promise<{ url: string; received: Received[]; connections: () => number; server: Server }> {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: request.socket,
      };
      received.push(entry);
      handler(entry, response);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    connections: () => connections,
    server,
  };
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

describe('upstreamHttp().fetch', () => {
  let http: UpstreamHttp;
  const servers: Server[] = [];

  beforeAll(() => {
    http = upstreamHttp({ connectionsPerOrigin: 4 });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await closeServer(server);
  });
  afterAll(async () => {
    await http.close();
  });

  it('sends method, path, query, headers and body, and answers status, headers and JSON', async () => {
    const upstream = await startServer((_received, response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
      response.end(JSON.stringify({ answer: 42 }));
    });
    servers.push(upstream.server);
    const response = await http.fetch(`${upstream.url}/v1/things?limit=2`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer sk-test', 'content-type': 'application/json' }),
      body: JSON.stringify({ question: 'x' }),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe('Created');
    expect(response.url).toBe(`${upstream.url}/v1/things?limit=2`);
    expect(response.headers.get('X-Request-Id')).toBe('req-1');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(Object.fromEntries(response.headers.entries())).toMatchObject({
      'content-type': 'application/json',
      'x-request-id': 'req-1',
    });
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ answer: 42 });
    expect(response.bodyUsed).toBe(true);
    const [request] = upstream.received;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/things?limit=2',
      body: JSON.stringify({ question: 'x' }),
    });
    expect(request!.headers['authorization']).toBe('Bearer sk-test');
  });

  it('keeps one pool per origin: sequential calls reuse a connection, another origin gets its own', async () => {
    const answer = (_received: Received, response: ServerResponse) => response.end('ok');
    const first = await startServer(answer);
    const second = await startServer(answer);
    servers.push(first.server, second.server);
    for (let index = 0; index < 5; index++) {
      expect(await (await http.fetch(`${first.url}/a`)).text()).toBe('ok');
      expect(await (await http.fetch(`${second.url}/b`)).text()).toBe('ok');
    }
    expect(first.connections()).toBe(1);
    expect(second.connections()).toBe(1);
    expect(new Set(first.received.map((each) => each.socket)).size).toBe(1);
    // Concurrent calls open at most `connectionsPerOrigin` connections to one origin.
    await Promise.all(Array.from({ length: 12 }, async () => (await http.fetch(`${first.url}/c`)).text()));
    expect(first.connections()).toBeLessThanOrEqual(4);
  });

  it('answers error statuses as responses (not ok), with their bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 400, max: 599 }), fc.string(), async (status, text) => {
        const upstream = await startServer((_received, response) => {
          response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
          response.end(text);
        });
        try {
          const response = await http.fetch(`${upstream.url}/fail`, { method: 'POST', body: 'x' });
          expect(response.status).toBe(status);
          expect(response.ok).toBe(false);
          expect(await response.text()).toBe(text);
        } finally {
          await closeServer(upstream.server);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('passes a streamed body through chunk by chunk, before the upstream has finished', async () => {
    let finish: () => void = () => undefined;
    const upstream = await startServer((_received, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      finish = () => {
        response.write('data: two\n\n');
        response.end();
      };
    });
    servers.push(upstream.server);
    const response = await http.fetch(`${upstream.url}/stream`, { method: 'POST', body: '{}' });
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    const iterator = body[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The first event arrived while the upstream still holds the response open.
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest += Buffer.from(next.value).toString();
    expect(rest).toBe('data: two\n\n');
  });

  it('aborts on its signal: before the answer (rejects) and mid-stream (the body errors, the upstream sees the close)', async () => {
    const closed: Array<Promise<void>> = [];
    const upstream = await startServer((received, response) => {
      closed.push(new Promise((resolve) => response.once('close', () => resolve())));
      if (received.url === '/never') return;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
    });
    servers.push(upstream.server);

    const beforeAnswer = new AbortController();
    const pending = http.fetch(`${upstream.url}/never`, {
      method: 'POST',
      body: '{}',
      signal: beforeAnswer.signal,
    });
    // Abort while the upstream holds the request, unanswered.
    await waitFor(
      () => (upstream.received.some((received) => received.url === '/never') ? true : undefined),
      'the upstream to receive /never',
      { state: () => upstream.received.map((received) => received.url) },
    );
    beforeAnswer.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const midStream = new AbortController();
    const response = await http.fetch(`${upstream.url}/stream`, {
      method: 'POST',
      body: '{}',
      signal: midStream.signal,
    });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    midStream.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    await Promise.all(closed);
  });

  it('serves the official OpenAI SDK: a completion, a stream and an API error', async () => {
    const upstream = await startServer((received, response) => {
      const body = JSON.parse(received.body) as { stream?: boolean; model: string };
      if (body.model === 'gpt-missing') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'no such model', type: 'invalid_request_error' } }));
      } else if (body.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of ['Hel', 'lo'])
          response.write(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
          );
        response.end('data: [DONE]\n\n');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(completion('Hello')));
      }
    });
    servers.push(upstream.server);
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `${upstream.url}/v1`,
      maxRetries: 0,
      fetch: http.fetch,
    });
    const messages = [{ role: 'user' as const, content: 'hi' }];

    const answer = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(answer.choices[0]?.message.content).toBe('Hello');
    expect(upstream.received[0]?.headers['authorization']).toBe('Bearer sk-test');

    let streamed = '';
    for await (const chunk of await client.chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
    }))
      streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('Hello');

    const failure = await client.chat.completions
      .create({ model: 'gpt-missing', messages })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('no such model');
  });
});
