import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('compressor'),
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 20_000,
  },
});
