import { realpathSync } from 'node:fs';
import { join, parse, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The folder Turbopack and output tracing may read files from: the workspace root — or, when
 * node_modules is a symlink to another checkout's install (which `npm start` supports, see
 * scripts/ensure-deps.mjs), the nearest folder holding both the workspace and that install, since
 * Turbopack does not compile files outside its root ("Could not find the Next.js package").
 */
function resolutionRoot(): string {
  const modules = realpathSync(join(workspaceRoot, 'node_modules'));
  const workspace = realpathSync(workspaceRoot);
  if (modules.startsWith(workspace + sep)) return workspaceRoot;
  // The workspace both as named and as resolved: either may be how Turbopack sees a file.
  const paths = [resolve(workspaceRoot), workspace, modules].map((path) => path.split(sep));
  const first = paths[0] ?? [];
  let shared = 0;
  while (shared < first.length && paths.every((parts) => parts[shared] === first[shared])) shared += 1;
  return first.slice(0, shared).join(sep) || parse(workspace).root;
}

const root = resolutionRoot();

const nextConfig: NextConfig = {
  // The workspace libraries (@agentdesk/api-contract, @agentdesk/authz) are TypeScript sources
  // outside this folder, resolved through tsconfig paths from the workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
  reactStrictMode: true,
  // Browsers and tools that ask for /favicon.ico without reading the page get the same icon
  // (app/icon.svg, which pages link to) instead of a 404.
  rewrites: async () => [{ source: '/favicon.ico', destination: '/icon.svg' }],
};

export default nextConfig;
