import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

/**
 * Maps each `@agentdesk/*` path from tsconfig.base.json to its source, so tests run without a build.
 * Exact matches: `@agentdesk/storage` must not swallow `@agentdesk/storage/testing`.
 */
export function workspaceAliases() {
  const tsconfig = JSON.parse(readFileSync(resolve(workspaceRoot, 'tsconfig.base.json'), 'utf8'));
  return Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
    replacement: resolve(workspaceRoot, target),
  }));
}

/**
 * The reporters of a project's vitest run: vitest's default, plus a JSON report of every file's
 * timings when the test command asks for one (`AGENTDESK_TEST_TIMINGS_DIR`, set by
 * scripts/test-run/run-tests.ts), from which it prints the slowest files at the end of `npm test`.
 */
export function testReporters(project) {
  const directory = process.env.AGENTDESK_TEST_TIMINGS_DIR;
  if (!directory) return ['default'];
  return ['default', ['json', { outputFile: resolve(directory, `${project}.vitest.json`) }]];
}
