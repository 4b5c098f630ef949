import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSandboxError } from '../engine/sandbox-error';
import {
  MAX_LINKS_FOLLOWED,
  type ResolveLinksOptions,
  type WorkspacePathStat,
  isInsideWorkspace,
  resolveWorkspaceLinks,
  resolveWorkspacePath,
} from './workspace-path';

it('resolves relative and absolute paths inside /workspace', () => {
  expect(resolveWorkspacePath('a.txt')).toBe('/workspace/a.txt');
  expect(resolveWorkspacePath('./src/../b/c.ts')).toBe('/workspace/b/c.ts');
  expect(resolveWorkspacePath('/workspace/x/')).toBe('/workspace/x');
  expect(resolveWorkspacePath('.', { allowRoot: true })).toBe('/workspace');
});

it.each([
  '/etc/passwd',
  '..',
  '../workspace2/x',
  'a/../../etc',
  '/workspace/../etc',
  '/workspacex/a',
  '',
  '  ',
  'a\0b',
  '.',
  '/workspace',
])('refuses %j with invalid-path', (input) => {
  expect(() => resolveWorkspacePath(input)).toThrow(expect.objectContaining({ code: 'invalid-path' }));
});

it('never resolves anything outside /workspace (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('..', '.', 'a', 'workspace', '', 'etc', '...'), { maxLength: 8 }),
      fc.boolean(),
      (segments, absolute) => {
        const input = (absolute ? '/' : '') + segments.join('/');
        try {
          const resolved = resolveWorkspacePath(input);
          expect(resolved.startsWith('/workspace/')).toBe(true);
          expect(resolved.split('/')).not.toContain('..');
        } catch (error) {
          expect(isSandboxError(error, 'invalid-path')).toBe(true);
        }
      },
    ),
  );
});

/**
 * A workspace as the engine's stat sees it: a link's `linkTarget` is where it finally leads (the
 * engine resolves it fully), and a loop has none (the engine answers 500).
 */
const tree: Record<string, WorkspacePathStat> = {
  '/workspace/src': { type: 'directory', size: 60 },
  '/workspace/src/a.txt': { type: 'file', size: 3 },
  '/workspace/notes.txt': { type: 'file', size: 5 },
  '/workspace/alias': { type: 'symlink', size: 3, linkTarget: '/workspace/src' },
  '/workspace/self': { type: 'symlink', size: 1, linkTarget: '/workspace' },
  '/workspace/note-link': { type: 'symlink', size: 9, linkTarget: '/workspace/notes.txt' },
  '/workspace/dangling': { type: 'symlink', size: 7, linkTarget: '/workspace/missing' },
  '/workspace/etcdir': { type: 'symlink', size: 4, linkTarget: '/etc' },
  '/workspace/relative-out': { type: 'symlink', size: 9, linkTarget: '/etc' },
  '/workspace/passwd': { type: 'symlink', size: 11, linkTarget: '/etc/passwd' },
  '/workspace/lookalike': { type: 'symlink', size: 11, linkTarget: '/workspace-other/x' },
  '/workspace/loop': { type: 'symlink', size: 4 },
};

function resolve(path: string, options: ResolveLinksOptions = { lastLinkOutside: 'refuse' }) {
  const looked: string[] = [];
  const resolved = resolveWorkspaceLinks(
    resolveWorkspacePath(path, { allowRoot: true }),
    async (absolute) => {
      looked.push(absolute);
      return tree[absolute];
    },
    options,
  );
  return { resolved, looked };
}

describe('resolveWorkspaceLinks', () => {
  it('looks each component up once and returns the stat of a plain path', async () => {
    const { resolved, looked } = resolve('src/a.txt');
    expect(await resolved).toEqual({ absolute: '/workspace/src/a.txt', stat: { type: 'file', size: 3 } });
    expect(looked).toEqual(['/workspace/src', '/workspace/src/a.txt']);
  });

  it('makes one look-up for a path of one component, none for /workspace itself', async () => {
    const one = resolve('notes.txt');
    await one.resolved;
    expect(one.looked).toEqual(['/workspace/notes.txt']);
    const root = resolve('.');
    expect(await root.resolved).toMatchObject({ absolute: '/workspace', stat: { type: 'directory' } });
    expect(root.looked).toEqual([]);
  });

  it('follows links that stay inside /workspace, in the middle and at the end', async () => {
    expect(await resolve('alias/a.txt').resolved).toMatchObject({
      absolute: '/workspace/src/a.txt',
      stat: { type: 'file' },
    });
    expect(await resolve('note-link').resolved).toMatchObject({ absolute: '/workspace/notes.txt' });
    expect(await resolve('self/self/src').resolved).toMatchObject({
      absolute: '/workspace/src',
      stat: { type: 'directory' },
    });
  });

  it('stops at the first missing component (a dangling link inside leads to its target)', async () => {
    const { resolved, looked } = resolve('nope/deeper/file.txt');
    expect(await resolved).toEqual({ absolute: '/workspace/nope/deeper/file.txt', stat: undefined });
    expect(looked).toEqual(['/workspace/nope']);
    expect(await resolve('dangling/x').resolved).toEqual({
      absolute: '/workspace/missing/x',
      stat: undefined,
    });
  });

  it.each([
    ['etcdir/passwd', 'etcdir is a symbolic link to /etc, out of /workspace'],
    ['etcdir', 'etcdir is a symbolic link to /etc'],
    ['relative-out/shadow', 'relative-out is a symbolic link to /etc'],
    ['passwd', 'passwd is a symbolic link to /etc/passwd'],
    ['lookalike', 'lookalike is a symbolic link to /workspace-other/x'],
    ['alias/../etcdir/x', 'etcdir is a symbolic link'],
  ])('refuses %j, a way out through a link', async (path, message) => {
    await expect(resolve(path).resolved).rejects.toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining(message),
    });
    await expect(resolve(path).resolved).rejects.toMatchObject({
      message: expect.stringContaining(JSON.stringify(path.replace(/^alias\/\.\.\//, ''))),
    });
  });

  it('keeps a last link out as the link itself when asked (list), still refusing one in the middle', async () => {
    const keep: ResolveLinksOptions = { lastLinkOutside: 'keep' };
    expect(await resolve('etcdir', keep).resolved).toEqual({
      absolute: '/workspace/etcdir',
      stat: tree['/workspace/etcdir'],
    });
    await expect(resolve('etcdir/x', keep).resolved).rejects.toMatchObject({ code: 'invalid-path' });
  });

  it('refuses a link the engine cannot resolve (a loop), and a path through a file', async () => {
    await expect(resolve('loop/x').resolved).rejects.toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining('cannot be resolved'),
    });
    await expect(resolve('notes.txt/x').resolved).rejects.toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining('notes.txt is not a directory'),
    });
  });

  it(`follows at most ${MAX_LINKS_FOLLOWED} links`, async () => {
    const within = Array.from({ length: MAX_LINKS_FOLLOWED }, () => 'self').join('/');
    expect(await resolve(within).resolved).toMatchObject({ absolute: '/workspace' });
    await expect(resolve(`${within}/self`).resolved).rejects.toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining(`more than ${MAX_LINKS_FOLLOWED} symbolic links`),
    });
  });

  it('never resolves outside /workspace, whatever the path (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...Object.keys(tree).map((path) => path.split('/').pop()!), '..', 'x'), {
          minLength: 1,
          maxLength: 6,
        }),
        async (segments) => {
          try {
            const { absolute } = await resolve(segments.join('/')).resolved;
            expect(isInsideWorkspace(absolute)).toBe(true);
          } catch (error) {
            expect(isSandboxError(error, 'invalid-path')).toBe(true);
          }
        },
      ),
    );
  });
});

it.each([
  ['/workspace', true],
  ['/workspace/a/../b', true],
  ['/workspace/../etc', false],
  ['/workspace-other', false],
  ['/etc', false],
])('isInsideWorkspace(%j) is %s', (path, inside) => {
  expect(isInsideWorkspace(path)).toBe(inside);
});
