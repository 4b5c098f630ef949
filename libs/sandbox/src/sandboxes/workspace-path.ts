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

/** What the engine says about one path (see `EngineClient.statPath`). */
export interface WorkspacePathStat {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  readonly modifiedAt?: string;
  /**
   * For a symlink: where it finally leads, every link in it followed, as an absolute path in the
   * container. Missing when the engine could not resolve it (a loop).
   */
  readonly linkTarget?: string;
}

/** Looks one absolute path up without following its last component; undefined when it does not exist. */
export type StatPath = (absolute: string) => Promise<WorkspacePathStat | undefined>;

export interface ResolvedWorkspacePath {
  /** Where the path really is: every link that stays inside /workspace followed. */
  readonly absolute: string;
  /** The stat of that place; undefined when it (or a directory on the way) does not exist. */
  readonly stat: WorkspacePathStat | undefined;
}

export interface ResolveLinksOptions {
  /**
   * A last component that is a link out of /workspace: refused (`refuse`, read and write), or
   * returned as the link itself, not followed (`keep`, list).
   */
  readonly lastLinkOutside: 'refuse' | 'keep';
}

/** The most links one path may go through (Linux's own limit, MAXSYMLINKS). */
export const MAX_LINKS_FOLLOWED = 40;

/**
 * Resolves a path from `resolveWorkspacePath` component by component, one `stat` per component, so
 * that no link leads out of /workspace. The engine's archive API (which runs as root) follows links
 * in every directory of a path; a link such as `etcdir -> /etc` would otherwise let a file tool read
 * `etcdir/passwd` from the image. A link whose target (fully resolved by the engine) stays inside is
 * followed; one that leaves is refused with `invalid-path` naming it; a loop, or more than
 * MAX_LINKS_FOLLOWED links, is refused too. Stops at the first component that does not exist.
 */
export async function resolveWorkspaceLinks(
  requested: string,
  stat: StatPath,
  options: ResolveLinksOptions,
): Promise<ResolvedWorkspacePath> {
  const segments = requested === WORKSPACE_PATH ? [] : relativeToWorkspace(requested).split('/');
  let current = WORKSPACE_PATH;
  let linksFollowed = 0;
  let found: WorkspacePathStat | undefined = { type: 'directory', size: 0 };
  for (const [index, segment] of segments.entries()) {
    const isLast = index === segments.length - 1;
    if (found?.type !== 'directory') {
      throw new SandboxError(
        'invalid-path',
        `path ${JSON.stringify(relativeToWorkspace(requested))}: ${relativeToWorkspace(current)} is not a directory`,
      );
    }
    const candidate = posix.join(current, segment);
    found = await stat(candidate);
    if (!found) return { absolute: posix.join(candidate, ...segments.slice(index + 1)), stat: undefined };
    if (found.type !== 'symlink') {
      current = candidate;
      continue;
    }
    const target = found.linkTarget;
    if (target === undefined) {
      throw new SandboxError(
        'invalid-path',
        `path ${JSON.stringify(relativeToWorkspace(requested))}: the symbolic link ${relativeToWorkspace(candidate)} cannot be resolved (a loop of links?)`,
      );
    }
    if (!isInsideWorkspace(target)) {
      if (isLast && options.lastLinkOutside === 'keep') return { absolute: candidate, stat: found };
      throw new SandboxError(
        'invalid-path',
        `path ${JSON.stringify(relativeToWorkspace(requested))}: ${relativeToWorkspace(candidate)} is a symbolic link to ${target}, out of ${WORKSPACE_PATH}; file tools stay inside ${WORKSPACE_PATH} (run_command can read what the sandbox user may)`,
      );
    }
    linksFollowed += 1;
    if (linksFollowed > MAX_LINKS_FOLLOWED) {
      throw new SandboxError(
        'invalid-path',
        `path ${JSON.stringify(relativeToWorkspace(requested))} goes through more than ${MAX_LINKS_FOLLOWED} symbolic links`,
      );
    }
    // The engine resolved every link in the target already: no component of it needs a look-up,
    // but what it names (possibly nothing: a dangling link) does.
    current = posix.normalize(target);
    found = current === WORKSPACE_PATH ? { type: 'directory', size: 0 } : await stat(current);
    if (!found) return { absolute: posix.join(current, ...segments.slice(index + 1)), stat: undefined };
  }
  return { absolute: current, stat: found };
}

/** `/workspace` itself or anything below it (an absolute, normalized path). */
export function isInsideWorkspace(absolute: string): boolean {
  const normalized = posix.normalize(absolute);
  return normalized === WORKSPACE_PATH || normalized.startsWith(`${WORKSPACE_PATH}/`);
}
