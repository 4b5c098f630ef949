import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';

/** One installed package the compiled API needs at run time. */
export interface RuntimePackage {
  readonly name: string;
  readonly version: string;
  /** Where it is installed, relative to the workspace root (`node_modules/a/node_modules/b`). */
  readonly installPath: string;
}

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/**
 * The packages `roots` need at run time: the roots and, transitively, their dependencies,
 * optional dependencies and peer dependencies — each found the way Node finds it (the nearest
 * `node_modules` upwards from the package that requires it), so nested versions stay nested.
 * Optional and peer dependencies that are not installed are skipped (the packages load them in a
 * try/catch, e.g. Nest's microservices); a missing regular dependency is an error.
 */
export function collectRuntimePackages(workspaceRoot: string, roots: readonly string[]): RuntimePackage[] {
  const found = new Map<string, RuntimePackage>();
  const pending: Array<{ name: string; from: string; required: boolean }> = roots.map((name) => ({
    name,
    from: workspaceRoot,
    required: true,
  }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const directory = findInstalled(next.name, next.from, workspaceRoot);
    if (directory === undefined) {
      if (next.required)
        throw new Error(
          `${next.name} (needed by ${relative(workspaceRoot, next.from) || 'the API'}) is not installed`,
        );
      continue;
    }
    const installPath = relative(workspaceRoot, directory);
    if (found.has(installPath)) continue;
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
    found.set(installPath, { name: next.name, version: manifest.version, installPath });
    for (const name of Object.keys(manifest.dependencies ?? {}))
      pending.push({ name, from: directory, required: true });
    for (const name of [
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ])
      pending.push({ name, from: directory, required: false });
  }
  return [...found.values()].sort((left, right) => left.installPath.localeCompare(right.installPath));
}

/** `from/node_modules/name`, then each parent's, up to the workspace root; undefined when absent. */
function findInstalled(name: string, from: string, workspaceRoot: string): string | undefined {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (directory === workspaceRoot || directory === dirname(directory)) return undefined;
  }
}

/**
 * Copies each package into `target` at the same relative place (so Node resolves the copy exactly
 * as it resolved the original), without the package's own nested node_modules: the nested packages
 * it needs are in the list themselves.
 */
export function copyRuntimePackages(
  workspaceRoot: string,
  packages: readonly RuntimePackage[],
  target: string,
): void {
  for (const runtimePackage of packages) {
    const source = join(workspaceRoot, runtimePackage.installPath);
    const destination = join(target, runtimePackage.installPath);
    mkdirSync(dirname(destination), { recursive: true });
    const nestedModules = join(source, 'node_modules');
    cpSync(source, destination, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (path) => path !== nestedModules && !isBuildTimeOnly(path),
    });
  }
}

/**
 * Files Node never loads when running JavaScript — about half of the installed bytes: TypeScript
 * sources and declarations, source maps, markdown, and a native addon's C/C++ sources and compiler
 * intermediates (better-sqlite3 keeps its built `.node` file, which is all it loads).
 */
const buildTimeOnlyExtensions = new Set([
  '.ts',
  '.mts',
  '.cts',
  '.map',
  '.md',
  '.markdown',
  '.c',
  '.cc',
  '.cpp',
  '.h',
  '.hpp',
  '.o',
  '.a',
  '.gyp',
  '.gypi',
  '.mk',
]);
const buildTimeOnlyDirectories = new Set(['obj', 'obj.target', '.deps']);

function isBuildTimeOnly(path: string): boolean {
  return buildTimeOnlyExtensions.has(extname(path)) || buildTimeOnlyDirectories.has(basename(path));
}
