import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isSandboxError } from '../engine/sandbox-error';
import { resolveWorkspacePath } from './workspace-path';

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
