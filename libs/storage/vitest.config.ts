import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // The repository suite runs once per engine: a fresh SQLite file or PostgreSQL schema per test.
  test: {
    reporters: testReporters('storage'),
    include: ['src/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
