import js from '@eslint/js';
import globals from 'globals';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** The folders of apps/api/src that never import a feature, `auth` or `model-access` (`cluster`: the Redis connections shared by replicas). */
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

/** `no-restricted-imports` options allowing relative imports into `allowed` folders of apps/api/src only. */
function layerImportRule(layer, allowed) {
  return {
    patterns: [
      {
        regex: `^\\.\\./(?!(?:${allowed.join('|')})(?:/|$))`,
        message: `${layer} of apps/api may import only ${allowed.join(', ')} (and libs): move the shared piece down, or pass it in from the feature`,
      },
    ],
  };
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
  {
    // Layers inside apps/api (see ARCHITECTURE.md): the bottom (`apiBottomLayer`: cluster, config,
    // core, errors, http, logging, metrics, openapi, routes) imports only the bottom; model-access and auth add themselves.
    // Allow-lists, so a new feature folder is out of reach of the lower layers without a change here.
    files: [`apps/api/src/{${apiBottomLayer.join(',')}}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', layerImportRule('the bottom layer', apiBottomLayer)] },
  },
  {
    files: ['apps/api/src/model-access/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layerImportRule('model-access', [...apiBottomLayer, 'model-access']),
      ],
    },
  },
  {
    files: ['apps/api/src/auth/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', layerImportRule('auth', [...apiBottomLayer, 'auth'])] },
  },
];
