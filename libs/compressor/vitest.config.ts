import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: { include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'], testTimeout: 20_000 },
});
