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
