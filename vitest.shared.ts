import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

/** Maps each `@agentdesk/*` path from tsconfig.base.json to its source, so tests run without a build. */
export function workspaceAliases(): Record<string, string> {
  const tsconfig = JSON.parse(readFileSync(resolve(workspaceRoot, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.fromEntries(
    Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => [name, resolve(workspaceRoot, target!)]),
  );
}
