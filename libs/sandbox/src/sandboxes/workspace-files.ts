import { posix } from 'node:path';
import { type Readable } from 'node:stream';
import { extract, pack } from 'tar-stream';
import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { WORKSPACE_PATH } from './container-spec';
import {
  type ResolvedWorkspacePath,
  relativeToWorkspace,
  resolveWorkspaceLinks,
  resolveWorkspacePath,
} from './workspace-path';

export interface WorkspaceFile {
  /** Relative to /workspace. */
  readonly path: string;
  readonly content: Buffer;
}

export interface WorkspaceEntry {
  /** Relative to /workspace. */
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  readonly modifiedAt?: string;
  /** For a symlink: where it points (as stored in the link, or fully resolved when listed on its own). */
  readonly linkTarget?: string;
}

export interface ListFilesOptions {
  readonly path?: string;
  readonly recursive?: boolean;
  readonly maxEntries?: number;
}

const defaultMaxEntries = 1000;

/** Reads one regular file from the workspace through the engine's archive API. */
export async function readWorkspaceFile(
  engine: EngineClient,
  config: SandboxConfig,
  containerId: string,
  path: string,
): Promise<WorkspaceFile> {
  const requested = resolveWorkspacePath(path);
  const shown = relativeToWorkspace(requested);
  const { absolute, stat } = await resolveLinks(engine, containerId, requested, 'refuse');
  if (!stat) throw await notFound(engine, containerId, shown);
  if (stat.type !== 'file') {
    throw new SandboxError('invalid-path', `${shown} is a ${describeType(stat.type)}, not a regular file`);
  }
  // Checked before the transfer too, so a huge file is refused without being sent.
  if (stat.size > config.exec.maxFileBytes) throw tooLarge(shown, stat.size, config);
  const archive = await getWorkspaceArchive(engine, containerId, absolute, shown);
  for await (const entry of extractEntries(archive)) {
    const { header } = entry;
    if (header.type !== 'file') {
      entry.resume();
      throw new SandboxError(
        'invalid-path',
        `${shown} is a ${describeType(header.type)}, not a regular file`,
      );
    }
    if ((header.size ?? 0) > config.exec.maxFileBytes) {
      entry.resume();
      throw tooLarge(shown, header.size ?? 0, config);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
    return { path: shown, content: Buffer.concat(chunks) };
  }
  throw await notFound(engine, containerId, shown);
}

/**
 * Writes (creates or replaces) a file, creating its parent directories, owned by the sandbox user.
 * A path through a link inside /workspace writes where the link leads; a link out is refused, and so
 * is a directory (the engine would replace it, and everything in it, with the file).
 */
export async function writeWorkspaceFile(
  engine: EngineClient,
  config: SandboxConfig,
  containerId: string,
  path: string,
  content: Buffer | string,
): Promise<{ path: string; bytes: number }> {
  const requested = resolveWorkspacePath(path);
  const shown = relativeToWorkspace(requested);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  if (bytes.length > config.exec.maxFileBytes) {
    throw new SandboxError(
      'file-too-large',
      `the content is ${bytes.length} bytes; the limit is ${config.exec.maxFileBytes}`,
    );
  }
  const { absolute, stat } = await resolveLinks(engine, containerId, requested, 'refuse');
  if (absolute === WORKSPACE_PATH || (stat && stat.type !== 'file')) {
    throw new SandboxError(
      'invalid-path',
      `${shown} is a ${describeType(stat?.type ?? 'directory')}; write_file writes regular files only`,
    );
  }
  const relative = relativeToWorkspace(absolute);
  const owner = { uid: config.userId, gid: config.groupId, mtime: new Date() };
  const archive = pack();
  const segments = relative.split('/');
  // Every parent gets an entry, existing ones too: the engine's extraction replaces a symlink found
  // where a directory entry says a directory is, so a link swapped in after the check above is not
  // written through.
  for (let depth = 1; depth < segments.length; depth++) {
    archive.entry({
      name: `${segments.slice(0, depth).join('/')}/`,
      type: 'directory',
      mode: 0o755,
      ...owner,
    });
  }
  archive.entry({ name: relative, mode: 0o644, ...owner }, bytes);
  archive.finalize();
  await engine.putArchive(containerId, WORKSPACE_PATH, await drain(archive as unknown as Readable));
  return { path: shown, bytes: bytes.length };
}

/**
 * Lists a directory of the workspace (one level, or the whole tree), capped at `maxEntries`. A link
 * inside /workspace is listed where it leads; a link out of it is listed as the link, not followed.
 */
export async function listWorkspaceFiles(
  engine: EngineClient,
  containerId: string,
  options: ListFilesOptions = {},
): Promise<{ entries: WorkspaceEntry[]; truncated: boolean }> {
  const requested = resolveWorkspacePath(options.path ?? '.', { allowRoot: true });
  const shown = relativeToWorkspace(requested);
  const { absolute, stat } = await resolveLinks(engine, containerId, requested, 'keep');
  if (!stat) throw await notFound(engine, containerId, shown);
  if (stat.type === 'symlink') {
    return {
      entries: [
        {
          path: shown,
          type: 'symlink',
          size: stat.size,
          ...(stat.modifiedAt ? { modifiedAt: stat.modifiedAt } : {}),
          ...(stat.linkTarget ? { linkTarget: stat.linkTarget } : {}),
        },
      ],
      truncated: false,
    };
  }
  if (stat.type !== 'directory') throw new SandboxError('invalid-path', `${shown} is not a directory`);
  const maxEntries = options.maxEntries ?? defaultMaxEntries;
  const archive = await getWorkspaceArchive(engine, containerId, absolute, shown);
  const entries: WorkspaceEntry[] = [];
  let truncated = false;
  // The archive's names start with the directory's own base name: `workspace/a.txt`, `src/x.ts`.
  const base = posix.basename(absolute);
  for await (const entry of extractEntries(archive)) {
    const { header } = entry;
    entry.resume();
    const inner = header.name.replace(/\/$/, '').slice(base.length + 1);
    if (!inner) {
      if (header.type !== 'directory') throw new SandboxError('invalid-path', `${shown} is not a directory`);
      continue;
    }
    if (!options.recursive && inner.includes('/')) continue;
    if (entries.length >= maxEntries) {
      truncated = true;
      continue;
    }
    entries.push({
      // Named under the path asked for, so a listing through a link reads back through it.
      path: relativeToWorkspace(posix.join(requested, inner)),
      type:
        header.type === 'file' || header.type === 'directory' || header.type === 'symlink'
          ? header.type
          : 'other',
      size: header.size ?? 0,
      ...(header.mtime ? { modifiedAt: header.mtime.toISOString() } : {}),
      ...(header.type === 'symlink' && header.linkname ? { linkTarget: header.linkname } : {}),
    });
  }
  return { entries, truncated };
}

/** `resolveWorkspaceLinks` with the engine's stat, one HEAD per component. */
function resolveLinks(
  engine: EngineClient,
  containerId: string,
  requested: string,
  lastLinkOutside: 'refuse' | 'keep',
): Promise<ResolvedWorkspacePath> {
  return resolveWorkspaceLinks(
    requested,
    async (absolute) => {
      try {
        return await engine.statPath(containerId, absolute);
      } catch (error) {
        // A HEAD has no body: a 500 on a link is the engine failing to resolve it (a loop of links).
        if (isSandboxError(error, 'engine-error') && error.details['statusCode'] === 500) {
          return { type: 'symlink', size: 0 };
        }
        throw error;
      }
    },
    { lastLinkOutside },
  );
}

/**
 * A look-up's 404 cannot say whether the path or the container is missing (a HEAD answer has no
 * body): asked only on this path, so a missing container is reported as such (and retried).
 */
async function notFound(engine: EngineClient, containerId: string, shown: string): Promise<SandboxError> {
  if (!(await engine.inspectContainer(containerId))) {
    return new SandboxError('container-missing', `the sandbox container ${containerId} is gone`);
  }
  return new SandboxError('file-not-found', `${shown} does not exist in ${WORKSPACE_PATH}`);
}

function tooLarge(shown: string, size: number, config: SandboxConfig): SandboxError {
  return new SandboxError(
    'file-too-large',
    `${shown} is ${size} bytes; the limit is ${config.exec.maxFileBytes} (read it in parts with run_command)`,
  );
}

function describeType(type: string | null | undefined): string {
  return type === 'other' || !type ? 'special file' : type;
}

/** The engine's 404 names the container; the caller (often a model) only needs the path. */
async function getWorkspaceArchive(
  engine: EngineClient,
  containerId: string,
  absolute: string,
  shown: string,
): Promise<Readable> {
  try {
    return await engine.getArchive(containerId, absolute);
  } catch (error) {
    if (isSandboxError(error, 'file-not-found')) {
      throw new SandboxError('file-not-found', `${shown} does not exist in ${WORKSPACE_PATH}`, {
        cause: error,
      });
    }
    throw error;
  }
}

function extractEntries(archive: Readable) {
  const extractor = extract();
  archive.on('error', (error) => extractor.destroy(error));
  archive.pipe(extractor as unknown as NodeJS.WritableStream);
  return extractor;
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
