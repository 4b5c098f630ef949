/**
 * `npx nx build api` (or `npx tsx apps/api/build-tools/build-api.ts [--outdir DIR]`): compiles the
 * API into one self-contained folder that runs with plain `node DIR/main.js` — no tsx, no
 * TypeScript at run time:
 *
 *   DIR/main.js (+ .map)   the API and every workspace lib it uses, bundled by esbuild (ESM, node20)
 *   DIR/package.json       `type: module` and the exact versions of the third-party packages it imports
 *   DIR/node_modules/      exactly those packages and their dependencies, copied from the installed
 *                          workspace (native better-sqlite3 included), so no registry is needed
 *
 * Third-party packages stay external: better-sqlite3 is native, pino and swagger-ui-dist read files
 * next to their sources, and Nest loads optional packages by name. esbuild does not emit decorator
 * metadata; the API injects with explicit `@Inject` tokens, exactly as under tsx (also esbuild).
 */
import { build, type Metafile } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { externalPackagesPlugin, splitPackageSpecifier } from './external-imports';
import { collectRuntimePackages, copyRuntimePackages } from './runtime-packages';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspaceRoot = resolve(projectRoot, '../..');

export interface BuildApiResult {
  readonly outdir: string;
  /** Third-party packages main.js imports, with their installed versions. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Packages copied into `outdir/node_modules` (the imports and everything they need). */
  readonly runtimePackageCount: number;
}

/**
 * Bundles the API's sources into `outdir/main.js` (esbuild; third-party packages stay imports).
 * Run from inside the workspace it resolves them from the workspace's node_modules — the test
 * suites start their API processes from such a bundle, built once per run, instead of tsx.
 */
export async function bundleApi(outdir: string): Promise<Metafile> {
  const workspaceManifest = readWorkspaceManifest();
  const result = await build({
    entryPoints: { main: join(projectRoot, 'src/compiled-main.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // The project's tsconfig: experimentalDecorators and the @agentdesk/* paths of the workspace.
    tsconfig: join(projectRoot, 'tsconfig.json'),
    plugins: [externalPackagesPlugin(workspaceRoot)],
    // The sources read the version from the workspace package.json, which the build folder lacks.
    define: { AGENTDESK_BUILD_VERSION: JSON.stringify(workspaceManifest.version) },
    sourcemap: true,
    // Class names stay readable in Nest's logs and error messages.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

function readWorkspaceManifest(): { version: string; engines?: Record<string, string> } {
  return JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf8')) as {
    version: string;
    engines?: Record<string, string>;
  };
}

/** Builds the API into `outdir` (emptied first). */
export async function buildApi(outdir: string): Promise<BuildApiResult> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const workspaceManifest = readWorkspaceManifest();
  const metafile = await bundleApi(outdir);
  const importedPackages = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      const parsed = imported.external ? splitPackageSpecifier(imported.path) : undefined;
      if (parsed !== undefined) importedPackages.add(parsed.name);
    }
  }
  // Resolved at run time by name rather than imported (see openapi/swagger-ui-assets.ts).
  importedPackages.add('swagger-ui-dist');
  const roots = [...importedPackages].sort();
  const runtimePackages = collectRuntimePackages(workspaceRoot, roots);
  copyRuntimePackages(workspaceRoot, runtimePackages, outdir);
  const dependencies = Object.fromEntries(
    roots.map((name) => [
      name,
      runtimePackages.find((found) => found.installPath === `node_modules/${name}`)!.version,
    ]),
  );
  writeFileSync(
    join(outdir, 'package.json'),
    `${JSON.stringify(
      {
        name: '@agentdesk/api-dist',
        version: workspaceManifest.version,
        private: true,
        type: 'module',
        main: 'main.js',
        engines: workspaceManifest.engines,
        dependencies,
      },
      null,
      2,
    )}\n`,
  );
  return { outdir, dependencies, runtimePackageCount: runtimePackages.length };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } }, strict: true });
  const outdir = resolve(workspaceRoot, values.outdir ?? 'dist/apps/api');
  const started = performance.now();
  const built = await buildApi(outdir);
  console.log(
    `built ${join(built.outdir, 'main.js')} in ${Math.round(performance.now() - started)} ms: ` +
      `${Object.keys(built.dependencies).length} third-party imports, ${built.runtimePackageCount} packages in node_modules`,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
