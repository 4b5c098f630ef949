import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/** `@scope/name/sub/path` → `{ name: '@scope/name', subpath: 'sub/path' }`; undefined for relative paths. */
export function splitPackageSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined;
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  if (parts.length < nameLength || parts.slice(0, nameLength).some((part) => part === '')) return undefined;
  return { name: parts.slice(0, nameLength).join('/'), subpath: parts.slice(nameLength).join('/') };
}

/**
 * Keeps every third-party package out of the bundle (workspace libs, mapped by tsconfig paths, are
 * bundled), and rewrites deep imports that only a CommonJS or bundler resolver understands
 * (`ajv/dist/2020`, `@nestjs/common/constants`) to the file Node's ESM resolver will find
 * (`ajv/dist/2020.js`): tsx and vitest add the extension at run time, plain `node` does not.
 * Packages with an `exports` map are left as written — the map is what Node follows.
 */
export function externalPackagesPlugin(workspaceRoot: string): Plugin {
  const requireFromWorkspace = createRequire(join(workspaceRoot, 'package.json'));
  return {
    name: 'agentdesk-external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const parsed = splitPackageSpecifier(args.path);
        // tsconfig paths (@agentdesk/*) resolve to sources: let esbuild bundle them.
        if (parsed === undefined || parsed.name.startsWith('@agentdesk/')) return undefined;
        if (parsed.subpath === '') return { path: args.path, external: true };
        const packageDirectory = findPackageDirectory(requireFromWorkspace, parsed.name);
        const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
          exports?: unknown;
        };
        if (manifest.exports !== undefined) return { path: args.path, external: true };
        const file = requireFromWorkspace.resolve(args.path);
        // require.resolve answers with real paths (node_modules may be a symlink).
        const withinPackage = relative(realpathSync(packageDirectory), file).split(sep).join('/');
        return { path: `${parsed.name}/${withinPackage}`, external: true };
      });
    },
  };
}

function findPackageDirectory(requireFromWorkspace: NodeJS.Require, name: string): string {
  for (const directory of requireFromWorkspace.resolve.paths(name) ?? []) {
    const candidate = join(directory, name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`the package ${name} is imported by the API but not installed (run npm ci)`);
}
