/**
 * The console part of `npm start`: a production build of apps/console served by `next start`, talking
 * to the API started beside it. The build is made when missing or older than the console's sources
 * (and the libraries it bundles), so a first start takes ~15 s longer and later starts are quick.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('..', import.meta.url));
const nextBin = join(workspaceRoot, 'node_modules/.bin/next');
const buildMarker = join(workspaceRoot, 'apps/console/.next/BUILD_ID');
const consoleSources = [
  'apps/console/app',
  'apps/console/features',
  'libs/api-contract/src',
  'libs/authz/src',
];

function newestSourceTime(): number {
  let newest = 0;
  for (const directory of consoleSources) {
    const root = join(workspaceRoot, directory);
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }))
      newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  return existsSync(buildMarker) && statSync(buildMarker).mtimeMs >= newestSourceTime();
}

const environment = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** Builds in a child process without blocking: the API beside it keeps answering meanwhile. */
async function buildConsole(): Promise<void> {
  console.log('Building the console for production (apps/console, next build: about 15 s)…');
  const build = spawn(nextBin, ['build', 'apps/console'], {
    cwd: workspaceRoot,
    env: environment,
    stdio: 'pipe',
  });
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const status = await new Promise<number | null>((resolve) => build.once('close', resolve));
  if (status !== 0) {
    console.error(`The console build failed:\n${output}`);
    process.exit(1);
  }
}

/** Starts the console on `host:port` and resolves with its URL once it answers; exits the start on failure. */
export async function startConsole(options: { apiUrl: string; host: string; port: number }): Promise<string> {
  if (!buildIsCurrent()) await buildConsole();
  const url = `http://${options.host}:${options.port}`;
  // Its own process group, stopped with the API: `next start` may leave a `next-server` child behind.
  const server = spawn(
    nextBin,
    ['start', 'apps/console', '--hostname', options.host, '--port', String(options.port)],
    {
      cwd: workspaceRoot,
      env: { ...environment, AGENTDESK_API_URL: options.apiUrl },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errors = '';
  server.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  process.once('exit', () => {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (server.exitCode !== null) {
      const reason = /EADDRINUSE/.test(errors)
        ? `port ${options.port} is in use (choose another: CONSOLE_PORT=${options.port + 1} npm start)`
        : errors.trim();
      console.error(`The console could not start: ${reason}`);
      process.exit(1);
    }
    const answered = await fetch(`${url}/sign-in`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.error(`The console did not answer on ${url} within 30 s:\n${errors}`);
  process.exit(1);
}
