import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The layering of apps/api is enforced by the workspace ESLint config (`no-restricted-imports`
 * zones). These tests lint small probe files through that config, so a weakened rule fails here,
 * and lint the real source of the lower layers, so an upward import fails here as well as in lint.
 */

const workspaceRoot = resolve(__dirname, '../../../..');
const sourceRoot = resolve(workspaceRoot, 'apps/api/src');
const bottomLayer = ['config', 'core', 'errors', 'http', 'logging', 'metrics', 'openapi', 'routes'];
const featureFolders = readdirSync(sourceRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !bottomLayer.includes(entry.name))
  .map((entry) => entry.name);

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: workspaceRoot });
});

async function restrictedImportsOf(layer: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`export * from '${specifier}';\n`, {
    filePath: resolve(sourceRoot, layer, 'layering-probe.ts'),
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('apps/api layering', () => {
  it('refuses every import from a bottom folder into auth, model-access or a feature', async () => {
    expect(featureFolders).toEqual(
      expect.arrayContaining(['agent', 'auth', 'lab', 'model-access', 'sessions']),
    );
    for (const layer of bottomLayer) {
      for (const feature of featureFolders) {
        const problems = await restrictedImportsOf(layer, `../${feature}/anything`);
        expect(problems, `${layer} → ${feature}`).toHaveLength(1);
      }
    }
  });

  it('lets a bottom folder import the bottom and the libs', async () => {
    for (const layer of bottomLayer) {
      for (const other of bottomLayer) {
        expect(await restrictedImportsOf(layer, `../${other}/anything`), `${layer} → ${other}`).toEqual([]);
      }
      expect(await restrictedImportsOf(layer, '@agentdesk/storage')).toEqual([]);
    }
  });

  it('keeps model-access and auth below the features', async () => {
    expect(await restrictedImportsOf('model-access', '../config/app-config')).toEqual([]);
    expect(await restrictedImportsOf('model-access', '../agent/agent.module')).toHaveLength(1);
    expect(await restrictedImportsOf('model-access', '../auth/own-data-caller')).toHaveLength(1);
    expect(await restrictedImportsOf('auth', '../model-access/model-router')).toHaveLength(1);
    expect(await restrictedImportsOf('auth', '../sessions/sessions.service')).toHaveLength(1);
    expect(await restrictedImportsOf('agent', '../model-access/model-router')).toEqual([]);
  });

  it('finds no upward import in the source of the lower layers', async () => {
    const folders = [...bottomLayer, 'model-access', 'auth'].map((folder) => resolve(sourceRoot, folder));
    const results = await eslint.lintFiles(folders);
    const upward = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(upward).toEqual([]);
  });
});
