import { posix } from 'node:path';
import { SandboxError } from '../engine/sandbox-error';
import { WORKSPACE_PATH } from './container-spec';

/**
 * Resolves a tool's path argument to an absolute path inside /workspace. Relative paths are taken
 * from /workspace; `..` segments that climb out, absolute paths elsewhere, NUL bytes and empty
 * strings are refused with `invalid-path` naming the input.
 */
export function resolveWorkspacePath(input: string, options: { allowRoot?: boolean } = {}): string {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) {
    throw new SandboxError('invalid-path', `path ${JSON.stringify(input)} is empty or contains a NUL byte`);
  }
  const absolute =
    posix.normalize(input.startsWith('/') ? input : posix.join(WORKSPACE_PATH, input)).replace(/\/+$/, '') ||
    '/';
  const inside = absolute === WORKSPACE_PATH || absolute.startsWith(`${WORKSPACE_PATH}/`);
  if (!inside) {
    throw new SandboxError(
      'invalid-path',
      `path ${JSON.stringify(input)} is outside ${WORKSPACE_PATH}; use a path inside it`,
    );
  }
  if (absolute === WORKSPACE_PATH && !options.allowRoot) {
    throw new SandboxError(
      'invalid-path',
      `path ${JSON.stringify(input)} names ${WORKSPACE_PATH} itself, not a file in it`,
    );
  }
  return absolute;
}

/** `/workspace/a/b.txt` → `a/b.txt`. */
export function relativeToWorkspace(absolute: string): string {
  return absolute === WORKSPACE_PATH ? '.' : absolute.slice(WORKSPACE_PATH.length + 1);
}
