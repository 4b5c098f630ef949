import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // Database suites create and migrate a fresh SQLite file or PostgreSQL database/schema per test;
  // HTTP suites run once per engine (`*.sqlite.spec.ts`, `*.postgres.spec.ts`).
  // Sandbox suites share one private Docker engine, started once per run by the global setup.
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    globalSetup: ['test/support/sandbox-engine.global-setup.ts', 'test/support/api-bundle.global-setup.ts'],
    testTimeout: 60_000,
    // One module graph per worker, not one per file: importing the app (Nest, the three SDKs, Kysely)
    // took ≈ 2.5 s per file: 332 s of the last CI run's 1,379, 10 s with this. Every test builds its
    // own app and database, so no state is shared through modules.
    isolate: false,
    hookTimeout: 120_000,
    // No maxWorkers: vitest's default is one worker per core but one (one on a 2-core CI machine).
    // Two took the suite alone from 11 min to 8, but beside the console's Playwright run the
    // replica tests then ran past their time limit (replica-crash at 63 s).
  },
});
