/**
 * `npm run bench [-- name ...]`: runs every benchmark in bench/ (or the named ones), one after another,
 * each in its own process so they do not disturb each other's measurements.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(benchDirectory)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.startsWith('_'))
  .map((file) => file.replace(/\.ts$/, ''));
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
  process.exit(2);
}
for (const name of requested.length ? requested : available) {
  console.log(`\n### bench/${name}.ts`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(benchDirectory, `${name}.ts`)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
