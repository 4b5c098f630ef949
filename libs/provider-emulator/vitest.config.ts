import { defineConfig } from 'vitest/config';
import { testReporters, workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    reporters: testReporters('provider-emulator'),
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 20_000,
    // One module graph per worker, not one per file: the SDKs' import is most of a file's time here,
    // and no test relies on module state of its own.
    isolate: false,
  },
});
