import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { explainListenFailure } from './listen-failure';

/** What a real `listen` throws for this address. */
function failureOfListening(host: string, port: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', resolve);
    server.listen(port, host, () =>
      server.close(() => reject(new Error(`listening on ${host}:${port} worked`))),
    );
  });
}

describe('explainListenFailure (real sockets)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function occupiedPort(host: string): Promise<number> {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    return address.port;
  }

  it.each(['127.0.0.1', '::1'])('a port in use on %s: which port, and PORT= to change it', async (host) => {
    const port = await occupiedPort(host);
    const message = explainListenFailure(await failureOfListening(host, port), { host, port });
    expect(message).toBe(
      `Port ${port} on ${host} is already in use (another AgentDesk, or another program) — stop it, or start on a free port: PORT=${port + 1} npm start`,
    );
  });

  it('an address this machine does not have: HOST= to change it', async () => {
    const host = '203.0.113.7';
    const message = explainListenFailure(await failureOfListening(host, 3000), { host, port: 3000 });
    expect(message).toMatch(/^HOST=203\.0\.113\.7 is not an address of this machine — use HOST=127\.0\.0\.1/);
  });

  it('a host name that does not resolve', async () => {
    const host = 'no-such-host.invalid';
    const message = explainListenFailure(await failureOfListening(host, 3000), { host, port: 3000 });
    expect(message).toMatch(/^HOST=no-such-host\.invalid could not be resolved/);
  });

  it('leaves other failures unexplained', () => {
    expect(explainListenFailure(new Error('boom'), { host: '127.0.0.1', port: 3000 })).toBeUndefined();
    expect(explainListenFailure('EADDRINUSE', { host: '127.0.0.1', port: 3000 })).toBeUndefined();
  });
});
