import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The layering of apps/api is enforced by the workspace ESLint config (`no-restricted-imports`
 * zones). These tests lint small probe files through that config, so a weakened rule fails here,
 * and lint the real source, so an upward or sideways import fails here as well as in lint.
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
  'shared',
  'usage',
];
/** What every feature may build on: the bottom (as the config declares it), then these. */
const belowFeaturesAboveBottom = ['model-access', 'auth', 'shared'];
/** Features that imported each other before issue 19 (each must stay a feature, kept apart). */
const knownFeatures = [
  'admin',
  'agent',
  'audit',
  'console-sessions',
  'health',
  'lab',
  'openai-compat',
  'sandbox',
  'sessions',
  'sso',
  'usage',
];
const sourceFolders = readdirSync(sourceRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

let eslint: ESLint;
/** The bottom folders as the ESLint config declares them (read from its rule for `config/`). */
let bottomLayer: string[];
/** Every folder above the bottom (model-access, auth, shared and the features). */
let featureFolders: string[];
/** The features proper: every folder of apps/api/src not below them, as on disk. */
let features: string[];

beforeAll(async () => {
  eslint = new ESLint({ cwd: workspaceRoot });
  const config = (await eslint.calculateConfigForFile(resolve(sourceRoot, 'config/probe.ts'))) as {
    rules: Record<string, [unknown, { patterns: { regex: string }[] }]>;
  };
  const regex = config.rules['no-restricted-imports']?.[1].patterns[0]?.regex ?? '';
  bottomLayer = /\(\?:([\w|-]+)\)/.exec(regex)?.[1]?.split('|') ?? [];
  featureFolders = sourceFolders.filter((folder) => !bottomLayer.includes(folder));
  features = featureFolders.filter((folder) => !belowFeaturesAboveBottom.includes(folder));
});

/** Lints one probe file in `layer` (a folder of apps/api/src, or a path below one) importing each specifier; returns the refused ones. */
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

  it('refuses every import from a bottom folder into auth, model-access, shared or a feature', async () => {
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

  it('reads every folder of apps/api/src above auth, model-access and shared as a feature', () => {
    expect(features).toEqual(expect.arrayContaining(knownFeatures));
    for (const folder of [...bottomLayer, ...belowFeaturesAboveBottom])
      expect(features).not.toContain(folder);
  });

  it('refuses every import from one feature into another, at any depth of the feature', async () => {
    for (const feature of features) {
      const others = features.filter((other) => other !== feature);
      expect(others.length).toBeGreaterThan(5);
      const sideways = others.map((other) => `../${other}/anything`);
      expect(await refusedImports(feature, sideways), feature).toEqual(sideways);
      const fromSubfolder = others.map((other) => `../../${other}/anything`);
      expect(await refusedImports(`${feature}/part`, fromSubfolder), `${feature}/part`).toEqual(
        fromSubfolder,
      );
    }
    // The turn runner sits one folder down in agent: its climb to apps/api/src is `../../`.
    const fromTurn = ['../../sessions/session-json', '../../usage/usage.module', '../../lab/target-result'];
    expect(await refusedImports('agent/turn', fromTurn)).toEqual(fromTurn);
  });

  it('lets a feature import the bottom, model-access, auth, shared and itself', async () => {
    for (const feature of features) {
      const allowed = [
        ...[...bottomLayer, ...belowFeaturesAboveBottom].map((below) => `../${below}/anything`),
        '../shared/metering/usage-meter',
        `../${feature}/anything`,
        './sibling',
        '@agentdesk/storage',
      ];
      expect(await refusedImports(feature, allowed), feature).toEqual([]);
    }
    const fromTurn = [
      '../../shared/metering/usage-meter',
      '../../config/turn-settings',
      '../turn-outcome',
      './turn-events',
    ];
    expect(await refusedImports('agent/turn', fromTurn)).toEqual([]);
  });

  it('keeps shared below every feature: it imports the bottom, model-access, auth and shared only', async () => {
    const intoFeatures = features.map((feature) => `../${feature}/anything`);
    expect(await refusedImports('shared', intoFeatures)).toEqual(intoFeatures);
    const fromConcern = features.map((feature) => `../../${feature}/anything`);
    expect(await refusedImports('shared/audit', fromConcern)).toEqual(fromConcern);
    expect(
      await refusedImports('shared/audit', [
        '../../core/tokens',
        '../../model-access/model-router',
        '../../auth/request-principal',
        '../../shared/metering/usage-meter',
        '../metering/usage-meter',
        './audit-actions',
      ]),
    ).toEqual([]);
  });

  it('lets the top-level files wire the features', async () => {
    const [result] = await eslint.lintText(
      "export * from './agent/agent.module';\nexport * from './sandbox/sandbox.module';\n",
      { filePath: resolve(sourceRoot, 'layering-probe.ts') },
    );
    expect(result?.messages.filter((message) => message.ruleId === 'no-restricted-imports')).toEqual([]);
  });

  it('finds no upward or sideways import in the source', async () => {
    const results = await eslint.lintFiles(sourceFolders.map((folder) => resolve(sourceRoot, folder)));
    expect(results.length).toBeGreaterThan(100);
    const refused = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(refused).toEqual([]);
  });
});
