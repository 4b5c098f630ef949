import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // Database suites create and migrate a fresh SQLite file or PostgreSQL schema per test.
  test: { include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
});
