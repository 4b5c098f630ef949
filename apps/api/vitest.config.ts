import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // Database suites create and migrate a fresh SQLite file or PostgreSQL database/schema per test;
  // HTTP suites run once per engine (`*.sqlite.spec.ts`, `*.postgres.spec.ts`).
  // Sandbox suites share one private Docker engine, started once per run by the global setup.
  test: {
    reporters: testReporters('api'),
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    globalSetup: ['test/support/sandbox-engine.global-setup.ts', 'test/support/api-bundle.global-setup.ts'],
    // Bounds a hang, never the assertion: tests wait on conditions, and on a loaded 2-core machine a
    // test that starts real API processes can take a minute where it takes ten seconds alone.
    testTimeout: 180_000,
    // One module graph per worker, not one per file: importing the app (Nest, the three SDKs, Kysely)
    // took ≈ 2.5 s per file: 332 s of the last CI run's 1,379, 10 s with this. Every test builds its
    // own app and database, so no state is shared through modules.
    isolate: false,
    hookTimeout: 180_000,
    // Two workers, on any machine: most files wait on child processes, PostgreSQL and Docker rather
    // than compute (one worker kept a 2-core CI machine 47% idle). The tests that start real API
    // processes wait on conditions, never on a clock, so sharing the cores only makes them slower.
    maxWorkers: 2,
  },
});
