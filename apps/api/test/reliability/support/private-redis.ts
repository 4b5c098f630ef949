import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';

/** A `redis-server` of a test's own, on its own port, that the test may kill and start again. */
export interface PrivateRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs the server (a lost Redis, as a crash or a network cut looks to clients). */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  restart(): Promise<void>;
  /**
   * SIGSTOPs the server: connections stay open and nothing answers (a frozen process, a
   * black-holed network) — unlike a kill, clients see no error, only silence.
   */
  freeze(): void;
  /** SIGCONTs a frozen server: it answers everything sent meanwhile, then goes on. */
  thaw(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

async function answers(port: number): Promise<boolean> {
  const socket = new Socket();
  try {
    socket.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/** Starts `redis-server` (Debian's, installed on every machine of this project) with no persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
      ],
      { stdio: 'ignore' },
    );
    for (let attempt = 0; attempt < 400; attempt++) {
      if (await answers(port)) return;
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server did not listen on ${port}`);
  };
  const kill = async (): Promise<void> => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  const signal = (name: NodeJS.Signals) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null)
      throw new Error(`redis-server is not running (cannot send ${name})`);
    child.kill(name);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    kill,
    restart: start,
    stop: kill,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
  };
}
