import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // Database suites create and migrate a fresh SQLite file or PostgreSQL database/schema per test;
  // HTTP suites run once per engine (`*.sqlite.spec.ts`, `*.postgres.spec.ts`).
  // Sandbox suites share one private Docker engine, started once per run by the global setup.
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    globalSetup: ['test/support/sandbox-engine.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
