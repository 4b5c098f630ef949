/**
 * The console part of `npm start`: a production build of apps/console served by `next start`, talking
 * to the API started beside it. The build is made when missing or older than the console's sources
 * (and the libraries it bundles), so a first start takes ~15 s longer and later starts are quick.
 *
 * `next start` runs under a watchdog (console-watchdog.mjs) that stops it, `next-server` included, as
 * soon as this process is gone — even killed with `kill -9`, when no exit handler runs — so a dead
 * start never leaves a console holding its port.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('..', import.meta.url));
const nextBin = join(workspaceRoot, 'node_modules/.bin/next');
const watchdog = fileURLToPath(new URL('./console-watchdog.mjs', import.meta.url));
const buildCommand = 'npx next build apps/console';
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

/**
 * Builds in a child process without blocking: the API beside it keeps answering meanwhile. Under the
 * watchdog as well, so a start killed mid-build does not leave the build running.
 */
async function buildConsole(): Promise<void> {
  console.log('Building the console for production (apps/console, next build: about 15 s)…');
  const build = spawn(process.execPath, [watchdog, nextBin, 'build', 'apps/console'], {
    cwd: workspaceRoot,
    env: environment,
    detached: true,
    stdio: 'pipe',
  });
  build.stdin.on('error', () => undefined);
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const status = await new Promise<number | null>((resolve) => build.once('close', resolve));
  if (status !== 0) {
    console.error(
      [
        `The console build failed (next build exited with ${status ?? 'a signal'}). The last lines of its output:`,
        '',
        output.trimEnd().split('\n').slice(-25).join('\n'),
        '',
        ...nodeModulesHint(output),
        `Reproduce it: cd ${workspaceRoot.replace(/\/$/, '')} && ${buildCommand}   (npm start builds again once that works)`,
      ].join('\n'),
    );
    process.exit(1);
  }
}

/** A fix for a build that could not find Next.js itself: node_modules, not the console, is broken. */
function nodeModulesHint(output: string): string[] {
  if (!/Could not find the Next\.js package/.test(output)) return [];
  const modules = join(workspaceRoot, 'node_modules');
  const borrowed = existsSync(modules) && lstatSync(modules).isSymbolicLink();
  return borrowed
    ? [
        `node_modules is a symlink to ${realpathSync(modules)}, and that install is not usable from here: give this checkout its own with: rm node_modules && npm ci`,
      ]
    : ['node_modules looks incomplete: reinstall it with: rm -rf node_modules && npm ci'];
}

/** The one line for a console port another program holds. */
function portInUse(host: string, port: number): string {
  return `Port ${port} on ${host} is already in use (another AgentDesk console, or another program) — stop it, or serve the console on a free port: CONSOLE_PORT=${port < 65_535 ? port + 1 : 3001} npm start`;
}

/**
 * Before anything starts: exits with one line when the console's port is taken, so a start never
 * announces a console that cannot come up. Other listen errors (a bad HOST) are left to the API,
 * which explains them. `next start` can still lose a race for the port: startConsole says so too.
 */
export async function ensureConsolePortFree(options: { host: string; port: number }): Promise<void> {
  const probe = createServer();
  const code = await new Promise<string | undefined>((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'unknown'));
    probe.listen({ host: options.host, port: options.port, exclusive: true }, () => resolve(undefined));
  });
  if (code === undefined) {
    await new Promise((resolve) => probe.close(resolve));
    return;
  }
  if (code === 'EADDRINUSE') {
    console.error(portInUse(options.host, options.port));
    process.exit(1);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    console.error(
      `Not allowed to listen on ${options.host}:${options.port} for the console (ports below 1024 need privileges) — serve it on a higher port: CONSOLE_PORT=3001 npm start`,
    );
    process.exit(1);
  }
}

/** Starts the console on `host:port` and resolves with its URL once it answers; exits the start on failure. */
export async function startConsole(options: { apiUrl: string; host: string; port: number }): Promise<string> {
  if (!buildIsCurrent()) await buildConsole();
  const url = `http://${options.host}:${options.port}`;
  // `next start` in its own process group (it forks a `next-server`), under the watchdog, whose stdin
  // is a pipe only this process writes to: when this process dies in any way, the kernel closes it and
  // the watchdog stops the group. The watchdog has its own process group too, so a signal to this
  // process's group (Ctrl+C, kill -9 -<pgid>) reaches it only through that pipe, after cleanup.
  const server = spawn(
    process.execPath,
    [watchdog, nextBin, 'start', 'apps/console', '--hostname', options.host, '--port', String(options.port)],
    {
      cwd: workspaceRoot,
      env: { ...environment, AGENTDESK_API_URL: options.apiUrl },
      detached: true,
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  // Never written to, never ended: it closes when this process does.
  server.stdin.on('error', () => undefined);
  let errors = '';
  server.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (server.exitCode !== null || server.signalCode !== null) {
      console.error(
        /EADDRINUSE/.test(errors)
          ? portInUse(options.host, options.port)
          : `The console could not start (next start exited with ${server.exitCode ?? server.signalCode}): ${errors.trim()}`,
      );
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
