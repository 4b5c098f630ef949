import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('agent-tools'),
    include: ['src/**/*.spec.ts'],
    testTimeout: 20_000,
  },
});
