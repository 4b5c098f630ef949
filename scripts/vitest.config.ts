import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../vitest.shared.mjs';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: { include: ['suite/**/*.spec.ts', 'demo/**/*.spec.ts'], testTimeout: 20_000 },
});
