// Installs dependencies on a fresh clone so `npm test` / `npm start` work with no prior step.
// Re-installs when package-lock.json changed since the last install.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const needsInstall = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;

if (needsInstall) {
  console.log('[ensure-deps] node_modules missing or stale: running npm ci');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
