/**
 * The floor of a gateway that keeps the official SDK, as issue 11 asks: Fastify parses the JSON body
 * and the `openai` SDK — on the same pooled `fetch` AgentDesk gives its clients (`upstreamHttp()`) —
 * makes the call to `SDK_FLOOR_UPSTREAM`; its answer goes back as JSON, or as `chat.completion.chunk`
 * SSE when `stream` is true. No key check, no validation, no translation, no metering: what is left
 * is the least any gateway on Fastify + the official SDK costs. Prints `sdk floor listening on <url>`.
 */
import { upstreamHttp } from '@agentdesk/providers';
import Fastify from 'fastify';
import OpenAI from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';

const upstream = process.env['SDK_FLOOR_UPSTREAM'];
if (!upstream) throw new Error('SDK_FLOOR_UPSTREAM is required');

const http = upstreamHttp();
const client = new OpenAI({
  apiKey: 'sk-emulator',
  baseURL: `${upstream}/v1`,
  maxRetries: 0,
  fetch: http.fetch,
});
const server = Fastify({ logger: false, keepAliveTimeout: 60_000 });

server.post('/v1/chat/completions', async (request, reply) => {
  const body = request.body as ChatCompletionCreateParams;
  if (!body.stream) return client.chat.completions.create({ ...body, stream: false });
  const stream = await client.chat.completions.create({ ...body, stream: true });
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for await (const chunk of stream) reply.raw.write(`data: ${JSON.stringify(chunk)}\n\n`);
  reply.raw.end('data: [DONE]\n\n');
  return reply;
});

server.listen({ port: 0, host: '127.0.0.1' }).then(
  (url) => process.stdout.write(`sdk floor listening on ${url}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.once('SIGTERM', () => {
  void server.close().then(() => http.close().finally(() => process.exit(0)));
});
