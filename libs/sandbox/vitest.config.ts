import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('sandbox'),
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    // One private Docker engine for the whole run (started, and stopped, by the global setup).
    globalSetup: ['test/engine-global-setup.ts'],
    // The engine is shared and some files prune it: files run one after another; cases inside a
    // file run concurrently where they do not interfere.
    fileParallelism: false,
    // Generous: CI runs this beside a dozen other projects on two cores, where every container start
    // and command is several times slower. Cases wait for conditions, so this only bounds a hang.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
