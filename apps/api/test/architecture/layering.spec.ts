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
/** The folders the issue puts at the bottom; the config may add more (never a feature or auth). */
const requiredBottom = ['config', 'core', 'errors', 'http', 'logging', 'metrics', 'openapi', 'routes'];
const neverBottom = [
  'admin',
  'agent',
  'auth',
  'lab',
  'model-access',
  'openai-compat',
  'sandbox',
  'sessions',
  'usage',
];
const sourceFolders = readdirSync(sourceRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

let eslint: ESLint;
/** The bottom folders as the ESLint config declares them (read from its rule for `config/`). */
let bottomLayer: string[];
let featureFolders: string[];

beforeAll(async () => {
  eslint = new ESLint({ cwd: workspaceRoot });
  const config = (await eslint.calculateConfigForFile(resolve(sourceRoot, 'config/probe.ts'))) as {
    rules: Record<string, [unknown, { patterns: { regex: string }[] }]>;
  };
  const regex = config.rules['no-restricted-imports']?.[1].patterns[0]?.regex ?? '';
  bottomLayer = /\(\?:([\w|-]+)\)/.exec(regex)?.[1]?.split('|') ?? [];
  featureFolders = sourceFolders.filter((folder) => !bottomLayer.includes(folder));
});

/** Lints one probe file in `layer` importing each specifier; returns the refused ones. */
async function refusedImports(layer: string, specifiers: readonly string[]): Promise<string[]> {
  const source = specifiers.map((specifier) => `export * from '${specifier}';`).join('\n');
  const [result] = await eslint.lintText(`${source}\n`, {
    filePath: resolve(sourceRoot, layer, 'layering-probe.ts'),
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => specifiers[message.line - 1] ?? `line ${message.line}`);
}

describe('apps/api layering', () => {
  it('puts config, core, errors, http, logging, metrics, openapi and routes at the bottom, and no feature', () => {
    expect(bottomLayer).toEqual(expect.arrayContaining(requiredBottom));
    for (const folder of neverBottom) expect(bottomLayer).not.toContain(folder);
    expect(featureFolders).toEqual(expect.arrayContaining(neverBottom));
  });

  it('refuses every import from a bottom folder into auth, model-access or a feature', async () => {
    const upward = featureFolders.map((feature) => `../${feature}/anything`);
    for (const layer of bottomLayer) expect(await refusedImports(layer, upward), layer).toEqual(upward);
  });

  it('lets a bottom folder import the bottom and the libs', async () => {
    const allowed = [
      ...bottomLayer.map((other) => `../${other}/anything`),
      '@agentdesk/storage',
      './sibling',
    ];
    for (const layer of bottomLayer) expect(await refusedImports(layer, allowed), layer).toEqual([]);
  });

  it('keeps model-access and auth below the features', async () => {
    expect(await refusedImports('model-access', ['../config/app-config', '../errors/api-error'])).toEqual([]);
    const aboveModelAccess = ['../agent/agent.module', '../auth/own-data-caller', '../lab/run-target'];
    expect(await refusedImports('model-access', aboveModelAccess)).toEqual(aboveModelAccess);
    const aboveAuth = ['../model-access/model-router', '../sessions/sessions.service'];
    expect(await refusedImports('auth', aboveAuth)).toEqual(aboveAuth);
    expect(
      await refusedImports('agent', ['../model-access/model-router', '../auth/effective-owner']),
    ).toEqual([]);
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
