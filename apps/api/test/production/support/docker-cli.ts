import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Runs the `docker` CLI against the test run's private engine. The legacy builder
 * (DOCKER_BUILDKIT=0): this machine's CLI has no buildx. Rejects with the command's stderr.
 */
export function docker(dockerHost: string, args: readonly string[], timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'docker',
      args,
      {
        env: { PATH: process.env['PATH'] ?? '', DOCKER_HOST: dockerHost, DOCKER_BUILDKIT: '0' },
        maxBuffer: 64 * 1024 * 1024,
        timeout: timeoutMs,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`docker ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** A TCP port free on 127.0.0.1 right now (a container on the host network listens on it). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
