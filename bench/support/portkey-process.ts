import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, startServerProcess, type ServerProcess } from './server-process';

/**
 * Loaded into the gateway's process with `--import`, before the gateway:
 * - Works around a crash of every streamed request in this install: the gateway wraps the upstream
 *   response as `new Response(stream, upstreamResponse)` and then appends `x-portkey-*` headers, but
 *   `@hono/node-server` ≥ 1.19 replaces `Response` with a lightweight class that, given a native
 *   response as `init`, keeps the upstream's *immutable* `Headers` — so `headers.append` throws
 *   `TypeError: immutable` and the client gets 500 "Something went wrong". Upstream event streams are
 *   re-wrapped in a native `Response` with mutable headers (one header copy; JSON answers untouched).
 * - Exits on SIGTERM through `process.exit`, so `--cpu-prof` can write its profile.
 */
const gatewayShim = `
const nativeFetch = globalThis.fetch;
const NativeResponse = globalThis.Response;
globalThis.fetch = async (...args) => {
  const response = await nativeFetch(...args);
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
  return new NativeResponse(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
};
process.once('SIGTERM', () => process.exit(0));
`;

/** Where `@portkey-ai/gateway` is installed. */
function gatewayEntry(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@portkey-ai/gateway/package.json')), 'build', 'start-server.js');
}

/**
 * Starts the Portkey OSS gateway (`@portkey-ai/gateway`) in its own process: headless (no console UI,
 * no log capture), `NODE_ENV=production`. It takes its port as `--port=<p>` (a separate `--port <p>`
 * is ignored and it listens on 8787). Clients choose the upstream per request with
 * `x-portkey-provider: openai` and `x-portkey-custom-host: <base URL ending in /v1>`.
 */
export async function startPortkeyGateway(
  options: { cpuProfileDirectory?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const entry = gatewayEntry();
  return startServerProcess({
    name: 'Portkey gateway',
    cwd: dirname(entry),
    args: [
      ...(options.cpuProfileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDirectory}`] : []),
      '--import',
      `data:text/javascript,${encodeURIComponent(gatewayShim)}`,
      entry,
      `--port=${port}`,
      '--headless',
    ],
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production' },
    ready: (output) =>
      /Ready for connections|running at/i.test(output) ? `http://127.0.0.1:${port}` : undefined,
  });
}
