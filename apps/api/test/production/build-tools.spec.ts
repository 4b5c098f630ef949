import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitPackageSpecifier } from '../../build-tools/external-imports';
import { collectRuntimePackages, copyRuntimePackages } from '../../build-tools/runtime-packages';

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,12}$/);

describe('splitPackageSpecifier', () => {
  it('splits any bare specifier into the package name and the path inside it', () => {
    fc.assert(
      fc.property(
        fc.option(segment, { nil: undefined }),
        segment,
        fc.array(segment, { maxLength: 4 }),
        (scope, name, subpath) => {
          const packageName = scope === undefined ? name : `@${scope}/${name}`;
          const specifier = [packageName, ...subpath].join('/');
          expect(splitPackageSpecifier(specifier)).toEqual({ name: packageName, subpath: subpath.join('/') });
        },
      ),
    );
  });

  it('leaves relative, absolute and node: specifiers alone', () => {
    for (const specifier of ['./x', '../x/y', '/abs/path', 'node:fs', '@scope'])
      expect(splitPackageSpecifier(specifier)).toBeUndefined();
  });
});

describe('collectRuntimePackages and copyRuntimePackages', () => {
  let workspace: string;
  const install = (path: string, manifest: Record<string, unknown>, files: Record<string, string> = {}) => {
    const directory = join(workspace, path);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'package.json'), JSON.stringify(manifest));
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(join(directory, file, '..'), { recursive: true });
      writeFileSync(join(directory, file), content);
    }
  };

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'agentdesk-runtime-packages-'));
    writeFileSync(join(workspace, 'package.json'), '{}');
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('follows dependencies the way Node resolves them, nested versions included, and copies only those', () => {
    install('node_modules/app-dep', {
      name: 'app-dep',
      version: '1.0.0',
      dependencies: { shared: '^2', leaf: '^1' },
      optionalDependencies: { 'not-installed': '^1' },
      peerDependencies: { peer: '^1' },
    });
    install('node_modules/app-dep/node_modules/shared', { name: 'shared', version: '2.0.0' });
    install('node_modules/shared', { name: 'shared', version: '1.0.0' });
    install('node_modules/leaf', { name: 'leaf', version: '1.2.3' }, { 'index.js': 'x', 'index.d.ts': 'x' });
    install('node_modules/peer', { name: 'peer', version: '1.0.0' });
    install('node_modules/dev-only', { name: 'dev-only', version: '9.9.9' });

    const packages = collectRuntimePackages(workspace, ['app-dep']);
    expect(packages).toEqual([
      { name: 'app-dep', version: '1.0.0', installPath: 'node_modules/app-dep' },
      { name: 'shared', version: '2.0.0', installPath: 'node_modules/app-dep/node_modules/shared' },
      { name: 'leaf', version: '1.2.3', installPath: 'node_modules/leaf' },
      { name: 'peer', version: '1.0.0', installPath: 'node_modules/peer' },
    ]);

    const target = join(workspace, 'out');
    copyRuntimePackages(workspace, packages, target);
    expect(existsSync(join(target, 'node_modules/app-dep/node_modules/shared/package.json'))).toBe(true);
    expect(existsSync(join(target, 'node_modules/leaf/index.js'))).toBe(true);
    expect(existsSync(join(target, 'node_modules/leaf/index.d.ts'))).toBe(false);
    expect(existsSync(join(target, 'node_modules/shared'))).toBe(false);
    expect(existsSync(join(target, 'node_modules/dev-only'))).toBe(false);
  });

  it('names a missing regular dependency and who needs it', () => {
    install('node_modules/app-dep', { name: 'app-dep', version: '1.0.0', dependencies: { gone: '^1' } });
    expect(() => collectRuntimePackages(workspace, ['app-dep'])).toThrow(
      'gone (needed by node_modules/app-dep) is not installed',
    );
  });
});
