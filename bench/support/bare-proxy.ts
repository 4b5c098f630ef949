/**
 * The least a Node gateway can do: a `node:http` server that forwards each request to
 * `BARE_PROXY_UPSTREAM` with `fetch` (the HTTP client the `openai` SDK uses) and streams the answer
 * back. No parsing, no auth, no translation — the cost of one extra Node hop on this machine, the
 * floor under any gateway's added latency. Prints `bare proxy listening on <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = process.env['BARE_PROXY_UPSTREAM'];
if (!upstream) throw new Error('BARE_PROXY_UPSTREAM is required');

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void (async () => {
      try {
        const answer = await fetch(`${upstream}${request.url ?? ''}`, {
          method: request.method ?? 'GET',
          headers: {
            'content-type': request.headers['content-type'] ?? 'application/json',
            authorization: request.headers['authorization'] ?? '',
          },
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        response.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        if (answer.body) for await (const chunk of answer.body) response.write(chunk);
        response.end();
      } catch (error) {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error) } }));
      }
    })();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `bare proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});
process.once('SIGTERM', () => process.exit(0));
