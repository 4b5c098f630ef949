import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('scripts'),
    include: ['suite/**/*.spec.ts', 'demo/**/*.spec.ts', 'test-run/**/*.spec.ts'],
    testTimeout: 20_000,
  },
});
