/**
 * The floor a Fastify gateway can reach on this machine: Fastify with one `undici` pool to
 * `FLOOR_UPSTREAM`, forwarding each request's bytes (no JSON parsing, no auth, no translation) and
 * streaming the answer back. AgentDesk runs on the same server framework, so the gap between this
 * and AgentDesk is what AgentDesk itself costs. Prints `fastify floor listening on <url>`.
 */
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstream = process.env['FLOOR_UPSTREAM'];
if (!upstream) throw new Error('FLOOR_UPSTREAM is required');

// As many upstream connections as the benchmark keeps in flight, kept alive between requests.
const pool = new Pool(upstream, { connections: 128, pipelining: 1 });
const server = Fastify({ logger: false, keepAliveTimeout: 60_000 });

// The body is forwarded as it came: parsing it is the gateway's job, not the floor's.
server.removeAllContentTypeParsers();
server.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

server.all('/*', async (request, reply) => {
  const answer = await pool.request({
    method: request.method as 'POST',
    path: request.url,
    headers: {
      'content-type': request.headers['content-type'] ?? 'application/json',
      authorization: request.headers['authorization'] ?? '',
    },
    body: (request.body as Buffer | undefined) ?? null,
  });
  const contentType = answer.headers['content-type'];
  void reply.code(answer.statusCode).header('content-type', contentType ?? 'application/json');
  return reply.send(answer.body);
});

server.listen({ port: 0, host: '127.0.0.1' }).then(
  (url) => process.stdout.write(`fastify floor listening on ${url}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.once('SIGTERM', () => {
  void server.close().then(() => pool.close().finally(() => process.exit(0)));
});
