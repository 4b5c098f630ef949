// Installs dependencies on a fresh clone so `npm test` / `npm start` work with no prior step.
// Re-installs when package-lock.json changed since the last install.
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
// A symlinked node_modules belongs to another checkout (a git worktree): `npm ci` would empty it there.
const borrowed = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();
const needsInstall =
  (!borrowed && !existsSync(marker)) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;

if (needsInstall) {
  console.log('[ensure-deps] node_modules missing or stale: running npm ci');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
