import { posix } from 'node:path';
import { type Readable } from 'node:stream';
import { extract, pack } from 'tar-stream';
import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { WORKSPACE_PATH } from './container-spec';
import { relativeToWorkspace, resolveWorkspacePath } from './workspace-path';

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
  const absolute = resolveWorkspacePath(path);
  const archive = await getWorkspaceArchive(engine, containerId, absolute);
  for await (const entry of extractEntries(archive)) {
    const { header } = entry;
    if (header.type !== 'file') {
      entry.resume();
      throw new SandboxError(
        'invalid-path',
        `${relativeToWorkspace(absolute)} is a ${header.type ?? 'special file'}, not a regular file`,
      );
    }
    if ((header.size ?? 0) > config.exec.maxFileBytes) {
      entry.resume();
      throw new SandboxError(
        'file-too-large',
        `${relativeToWorkspace(absolute)} is ${header.size} bytes; the limit is ${config.exec.maxFileBytes} (read it in parts with run_command)`,
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
    return { path: relativeToWorkspace(absolute), content: Buffer.concat(chunks) };
  }
  throw new SandboxError(
    'file-not-found',
    `${relativeToWorkspace(absolute)} does not exist in ${WORKSPACE_PATH}`,
  );
}

/** Writes (creates or replaces) a file, creating its parent directories, owned by the sandbox user. */
export async function writeWorkspaceFile(
  engine: EngineClient,
  config: SandboxConfig,
  containerId: string,
  path: string,
  content: Buffer | string,
): Promise<{ path: string; bytes: number }> {
  const absolute = resolveWorkspacePath(path);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  if (bytes.length > config.exec.maxFileBytes) {
    throw new SandboxError(
      'file-too-large',
      `the content is ${bytes.length} bytes; the limit is ${config.exec.maxFileBytes}`,
    );
  }
  const relative = relativeToWorkspace(absolute);
  const owner = { uid: config.userId, gid: config.groupId, mtime: new Date() };
  const archive = pack();
  const segments = relative.split('/');
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
  return { path: relative, bytes: bytes.length };
}

/** Lists a directory of the workspace (one level, or the whole tree), capped at `maxEntries`. */
export async function listWorkspaceFiles(
  engine: EngineClient,
  containerId: string,
  options: ListFilesOptions = {},
): Promise<{ entries: WorkspaceEntry[]; truncated: boolean }> {
  const absolute = resolveWorkspacePath(options.path ?? '.', { allowRoot: true });
  const maxEntries = options.maxEntries ?? defaultMaxEntries;
  const archive = await getWorkspaceArchive(engine, containerId, absolute);
  const entries: WorkspaceEntry[] = [];
  let truncated = false;
  // The archive's names start with the directory's own base name: `workspace/a.txt`, `src/x.ts`.
  const base = posix.basename(absolute);
  for await (const entry of extractEntries(archive)) {
    const { header } = entry;
    entry.resume();
    const inner = header.name.replace(/\/$/, '').slice(base.length + 1);
    if (!inner) {
      if (header.type !== 'directory')
        throw new SandboxError('invalid-path', `${relativeToWorkspace(absolute)} is not a directory`);
      continue;
    }
    if (!options.recursive && inner.includes('/')) continue;
    if (entries.length >= maxEntries) {
      truncated = true;
      continue;
    }
    entries.push({
      path: relativeToWorkspace(posix.join(absolute, inner)),
      type:
        header.type === 'file' || header.type === 'directory' || header.type === 'symlink'
          ? header.type
          : 'other',
      size: header.size ?? 0,
      ...(header.mtime ? { modifiedAt: header.mtime.toISOString() } : {}),
    });
  }
  return { entries, truncated };
}

/** The engine's 404 names the container; the caller (often a model) only needs the path. */
async function getWorkspaceArchive(
  engine: EngineClient,
  containerId: string,
  absolute: string,
): Promise<Readable> {
  try {
    return await engine.getArchive(containerId, absolute);
  } catch (error) {
    if (isSandboxError(error, 'file-not-found')) {
      throw new SandboxError(
        'file-not-found',
        `${relativeToWorkspace(absolute)} does not exist in ${WORKSPACE_PATH}`,
        { cause: error },
      );
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
