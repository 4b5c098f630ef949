// Installs the system tools the test suites need, once, before Nx runs projects in parallel
// (two projects installing at the same moment would fight over apt's lock).
// - dockerd + busybox: libs/sandbox and apps/api start private Docker engines of their own.
// - chromium: the console's Playwright tests drive Debian's Chromium (/usr/bin/chromium); Playwright's
//   own browser download is never used.
// On a machine without them: installed with apt-get when we are root, else a message saying how.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const needed = [
  { command: 'dockerd', debianPackage: 'docker.io', neededBy: 'the sandbox tests' },
  { command: 'busybox', debianPackage: 'busybox-static', neededBy: 'the sandbox tests' },
  { command: 'chromium', debianPackage: 'chromium', neededBy: "the console's end-to-end tests" },
];

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
