// Installs dependencies on a fresh clone so `npm test` / `npm start` work with no prior step.
// Re-installs only when package-lock.json's content differs from the one last installed (a
// content hash, not timestamps: a fresh checkout or a git worktree sharing node_modules has a new
// file time and the same lock).
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';

const installedLockHash = 'node_modules/.agentdesk-lock-sha256';
const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
// A symlinked node_modules belongs to another checkout: `npm ci` would empty it there.
const borrowed = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();
const installed = existsSync(installedLockHash) ? readFileSync(installedLockHash, 'utf8').trim() : undefined;

if (!borrowed && installed !== lockHash) {
  console.log(
    '[ensure-deps] node_modules missing or installed from another package-lock.json: running npm ci',
  );
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  writeFileSync(installedLockHash, `${lockHash}\n`);
}
