import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: { include: ['features/**/*.spec.ts', 'test/**/*.spec.ts'], testTimeout: 30_000 },
});
