import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineClient } from '../engine/engine-client';
import { findOnPath } from './offline-base-image';

export interface PrivateEngine {
  /** `unix:///…/docker.sock`: put it in DOCKER_HOST. */
  readonly dockerHost: string;
  readonly directory: string;
  readonly pid: number;
  readonly engine: EngineClient;
  /** SIGTERM, wait for the daemon to exit (SIGKILL after 20 s); `removeDirectory` also deletes its data. */
  stop(options?: { removeDirectory?: boolean }): Promise<void>;
}

export interface StartPrivateEngineOptions {
  /** Holds the socket, data root and exec root; keep it short (a unix socket path has ≤ 107 bytes). */
  readonly directory: string;
  /** Install Debian's docker.io + busybox-static with apt-get when dockerd is missing and we are root. */
  readonly install?: boolean;
  readonly readyTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

const debianPackages = ['docker.io', 'busybox-static'];

/** Thrown with a message that says what is missing and how to fix it. */
export class PrivateEngineError extends Error {
  override readonly name = 'PrivateEngineError';
}

/**
 * Starts a Docker daemon of our own on a socket and data root inside `directory` (no iptables, no
 * bridge: sandboxes have no network anyway), and waits until it answers ping. For tests, benches
 * and `npm run sandbox:engine` on a machine where no daemon runs; never touches a system daemon.
 */
export async function startPrivateEngine(options: StartPrivateEngineOptions): Promise<PrivateEngine> {
  const log = options.log ?? ((line: string) => console.error(line));
  const directory = resolve(options.directory);
  const dockerd = ensureDockerdInstalled(options.install ?? true, log);
  mkdirSync(directory, { recursive: true });
  const socketPath = join(directory, 'docker.sock');
  if (Buffer.byteLength(socketPath) > 107) {
    throw new PrivateEngineError(
      `the engine folder ${directory} is too deep for a unix socket path; use a shorter one such as /tmp/agentdesk-engine`,
    );
  }
  const logPath = join(directory, 'dockerd.log');
  const logFile = openSync(logPath, 'a');
  const child = spawn(
    dockerd,
    [
      `--data-root=${join(directory, 'data')}`,
      `--exec-root=${join(directory, 'exec')}`,
      `--pidfile=${join(directory, 'dockerd.pid')}`,
      `--host=unix://${socketPath}`,
      '--storage-driver=overlay2',
      '--iptables=false',
      '--ip-masq=false',
      '--bridge=none',
    ],
    { stdio: ['ignore', logFile, logFile], detached: true },
  );
  closeSync(logFile);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const dockerHost = `unix://${socketPath}`;
  const engine = new EngineClient({ dockerHost });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (hasExited) {
      throw new PrivateEngineError(`dockerd exited during start-up; its log (${logPath}):\n${tail(logPath)}`);
    }
    try {
      await engine.ping();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new PrivateEngineError(
          `dockerd did not answer on ${dockerHost} within the timeout; its log (${logPath}):\n${tail(logPath)}`,
        );
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  log(`[sandbox] private Docker engine ready at ${dockerHost} (pid ${child.pid})`);

  return {
    dockerHost,
    directory,
    pid: child.pid!,
    engine,
    async stop(stopOptions = {}) {
      if (!hasExited) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(killTimer);
      }
      if (stopOptions.removeDirectory) {
        unmountBelow(directory);
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

function ensureDockerdInstalled(install: boolean, log: (line: string) => void): string {
  const found = findOnPath('dockerd');
  if (found && findOnPath('busybox')) return found;
  const missing = [found ? undefined : 'dockerd', findOnPath('busybox') ? undefined : 'busybox']
    .filter(Boolean)
    .join(' and ');
  const fix = `apt-get update && apt-get install -y --no-install-recommends ${debianPackages.join(' ')}`;
  const isRoot = process.getuid?.() === 0;
  if (!install || !isRoot || !findOnPath('apt-get')) {
    throw new PrivateEngineError(
      `${missing} not found, and ${!isRoot ? 'this user is not root' : !install ? 'installing was not allowed' : 'apt-get is not available'}, ` +
        `so no private Docker engine can be started. Fix: run as root: ${fix} — or point DOCKER_HOST at a running engine.`,
    );
  }
  log(`[sandbox] ${missing} missing: installing ${debianPackages.join(' ')} with apt-get`);
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...debianPackages]]) {
    const run = spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (run.status !== 0) {
      throw new PrivateEngineError(`apt-get ${args[0]} failed (exit ${run.status}); install by hand: ${fix}`);
    }
  }
  const installed = findOnPath('dockerd');
  if (!installed)
    throw new PrivateEngineError(
      `dockerd still missing after installing ${debianPackages.join(' ')}; install by hand: ${fix}`,
    );
  return installed;
}

/** dockerd may leave a bind mount of its data root behind (seen with overlay2); rm cannot cross it. */
function unmountBelow(directory: string): void {
  let mounts: string[];
  try {
    mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((mountPoint) => mountPoint === directory || mountPoint.startsWith(`${directory}/`));
  } catch {
    return;
  }
  for (const mountPoint of mounts.sort((left, right) => right.length - left.length)) {
    spawnSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}
