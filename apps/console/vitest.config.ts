import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('console'),
    include: ['features/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 30_000,
  },
});
