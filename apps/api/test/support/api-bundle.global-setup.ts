import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleApi } from '../../build-tools/build-api';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Bundles the API once per test run (esbuild, ~0.3 s) for the suites that start real API
 * processes: `node <bundle>` is what production runs, and it starts in about half the time of
 * `node --import tsx apps/api/src/main.ts`, which compiles the app again in every process (about
 * fifty of them per run). The bundle lives inside the workspace so its imports resolve from the
 * workspace's node_modules; the folder is per run and removed at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outdir = join(workspace, 'dist', `api-under-test-${process.pid}`);
  await bundleApi(outdir);
  project.provide('apiBundle', join(outdir, 'main.js'));
  return () => rm(outdir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiBundle: string;
  }
}
