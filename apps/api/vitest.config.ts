import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  // Database suites create and migrate a fresh SQLite file or PostgreSQL database/schema per test;
  // HTTP suites run once per engine (`*.sqlite.spec.ts`, `*.postgres.spec.ts`).
  test: { include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
