// Installs the system tools the test suites need, once, before Nx runs projects in parallel
// (two projects installing at the same moment would fight over apt's lock).
// - dockerd + busybox: libs/sandbox and apps/api start private Docker engines of their own.
// - chromium-headless-shell: the console's Playwright tests drive Debian's Chromium headless shell
//   (/usr/bin/chromium-headless-shell); Playwright's own browser download is never used.
// - redis-server: the multi-replica tests share rate limits and revocations through the Redis on
//   127.0.0.1:6379 (started here, without persistence, when nothing answers there) and kill and
//   restart private redis-servers of their own.
// On a machine without them: installed with apt-get when we are root, else a message saying how.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { Socket } from 'node:net';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const needed = [
  { command: 'dockerd', debianPackage: 'docker.io', neededBy: 'the sandbox tests' },
  { command: 'busybox', debianPackage: 'busybox-static', neededBy: 'the sandbox tests' },
  {
    command: 'chromium-headless-shell',
    debianPackage: 'chromium-headless-shell',
    neededBy: "the console's end-to-end tests",
  },
  { command: 'redis-server', debianPackage: 'redis-server', neededBy: 'the multi-replica tests' },
];

const REDIS_PORT = 6379;

function onPath(command) {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(directory, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

const missing = needed.filter((tool) => !onPath(tool.command));
if (missing.length > 0) {
  const packages = missing.map((tool) => tool.debianPackage);
  const fix = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const names = missing.map((tool) => `${tool.command} (${tool.neededBy})`).join(', ');
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.error(`[ensure-test-tools] missing: ${names}. Install as root: ${fix}`);
    process.exit(1);
  }
  console.log(`[ensure-test-tools] missing: ${names}; installing ${packages.join(' ')} with apt-get`);
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: environment });
    if (run.status !== 0) {
      console.error(
        `[ensure-test-tools] apt-get ${args[0]} failed (exit ${run.status}). Install by hand: ${fix}`,
      );
      process.exit(1);
    }
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
async function answers(port) {
  const socket = new Socket();
  const timer = setTimeout(() => socket.destroy(new Error('timeout')), 1_000);
  try {
    socket.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

if (!(await answers(REDIS_PORT))) {
  console.log(
    `[ensure-test-tools] no Redis on 127.0.0.1:${REDIS_PORT}; starting redis-server (no persistence)`,
  );
  const started = spawnSync(
    'redis-server',
    [
      '--port',
      String(REDIS_PORT),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'yes',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const up = started.status === 0;
  for (let attempt = 0; up && attempt < 50 && !(await answers(REDIS_PORT)); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (!up || !(await answers(REDIS_PORT))) {
    console.error(
      `[ensure-test-tools] could not start Redis on 127.0.0.1:${REDIS_PORT} (redis-server exit ${started.status}); ` +
        `start one by hand: redis-server --port ${REDIS_PORT} --save '' --daemonize yes`,
    );
    process.exit(1);
  }
}
