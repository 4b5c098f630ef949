import { readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** The folders of apps/api/src that never import a feature, `shared`, `auth` or `model-access` (`cluster`: the Redis connections shared by replicas). */
const apiBottomLayer = [
  'cluster',
  'config',
  'core',
  'errors',
  'http',
  'logging',
  'metrics',
  'openapi',
  'routes',
];

/** The layers of apps/api/src between the bottom and the features: what any feature may import. */
const apiBelowFeatures = [...apiBottomLayer, 'model-access', 'auth', 'shared'];

const apiSource = fileURLToPath(new URL('./apps/api/src', import.meta.url));

/**
 * The feature folders of apps/api/src: every folder that is not below the features, read from disk,
 * so a new feature folder is kept apart from the others without a change here.
 */
const apiFeatures = readdirSync(apiSource, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !apiBelowFeatures.includes(entry.name))
  .map((entry) => entry.name);

/** How many folders deep the deepest file of apps/api/src sits inside its top-level folder (1: directly in it). */
const apiDeepestFile = Math.max(
  1,
  ...readdirSync(apiSource, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(apiSource, entry.parentPath).split(sep).length),
);

/**
 * `no-restricted-imports` options allowing relative imports into `allowed` folders of apps/api/src
 * only, for a file `depth` folders below apps/api/src: a path that climbs to apps/api/src (or past
 * it) must go on into an allowed folder; a shorter climb stays inside the file's own folder.
 */
function layerImportRule(layer, allowed, depth = 1) {
  return {
    patterns: [
      {
        regex: `^${'\\.\\./'.repeat(depth)}(?!(?:${allowed.join('|')})(?:/|$))`,
        message: `${layer} of apps/api may import only ${allowed.join(', ')} (and libs): move the shared piece down, or pass it in from the feature`,
      },
    ],
  };
}

/** The config blocks giving the files of `folders` (of apps/api/src, at every depth) the `allowed` imports; tests are exempt. */
function apiLayer(folders, layer, allowed) {
  // A brace with one name in it is not expanded by the glob matcher: write a lone folder bare.
  const folderGlob = folders.length === 1 ? folders[0] : `{${folders.join(',')}}`;
  return Array.from({ length: apiDeepestFile }, (_, index) => ({
    files: [`apps/api/src/${folderGlob}/${'*/'.repeat(index)}*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', layerImportRule(layer, allowed, index + 1)] },
  }));
}

/**
 * Module boundaries are enforced with real constraints:
 * - `type:app` may use libs; libs never import apps.
 * - `type:test-tooling` (the provider emulator) is only for tests, benches and the demo.
 * - `scope:browser` projects (the console) may only import browser-safe libs (`scope:shared` or
 *   `scope:browser`): never providers, sandbox, storage or any other `scope:server` code.
 */
export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/next-env.d.ts',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/coverage/**',
      'data/**',
      '.nx/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:test-tooling', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            { sourceTag: 'scope:browser', onlyDependOnLibsWithTags: ['scope:shared', 'scope:browser'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // Tests and benchmarks may also use test tooling (the provider emulator); production code may not.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            { sourceTag: 'type:test-tooling', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            { sourceTag: 'scope:browser', onlyDependOnLibsWithTags: ['scope:shared', 'scope:browser'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // The console's browser tests run in Node beside the stack they start: they may use the server
    // test tooling (the identity provider) that the console's own code, bound to the browser, may not.
    files: ['apps/console/e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:test-tooling'] },
            {
              sourceTag: 'scope:browser',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:browser', 'type:test-tooling'],
            },
          ],
        },
      ],
    },
  },
  {
    // Build tooling config, not project code: it may read the workspace's shared test setup.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Layers inside apps/api (see ARCHITECTURE.md): the bottom (`apiBottomLayer`: cluster, config,
  // core, errors, http, logging, metrics, openapi, routes) imports only the bottom; model-access and
  // auth add themselves; `shared` (what several features use) imports those and itself; a feature
  // imports all of those and itself, never another feature. Allow-lists, and the features read from
  // disk, so a new feature folder is out of reach of the lower layers and of the other features
  // without a change here. The top-level files (app.module.ts, create-app.ts…) wire the features.
  ...apiLayer(apiBottomLayer, 'the bottom layer', apiBottomLayer),
  ...apiLayer(['model-access'], 'model-access', [...apiBottomLayer, 'model-access']),
  ...apiLayer(['auth'], 'auth', [...apiBottomLayer, 'auth']),
  ...apiLayer(['shared'], 'shared', apiBelowFeatures),
  ...apiFeatures.flatMap((feature) =>
    apiLayer([feature], `the feature ${feature}`, [...apiBelowFeatures, feature]),
  ),
];
