import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/** The real `docker` CLI against the test engine: what an operator would type. */
export async function dockerCli(...args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, {
    env: { ...process.env, DOCKER_HOST: inject('dockerHost') },
  });
  return stdout.trim();
}
