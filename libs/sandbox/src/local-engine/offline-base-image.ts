import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pack, type Pack } from 'tar-stream';
import { type EngineClient } from '../engine/engine-client';
import { SandboxError } from '../engine/sandbox-error';

export interface OfflineBaseImageOptions {
  /** The tag to create, e.g. `agentdesk-sandbox-base:local`. */
  readonly reference: string;
  /** Defaults: the `node` running this process and the `busybox` on PATH. */
  readonly nodeBinary?: string;
  readonly busyboxBinary?: string;
  readonly userId?: number;
  readonly groupId?: number;
}

const imageChanges = [
  'ENV PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
  'WORKDIR /workspace',
  'LABEL agentdesk.sandbox.offline-base=true',
];

/**
 * Builds a base image without a registry (`docker import`): busybox and its applet links (a shell
 * and core utilities), the host's own `node` binary with the shared libraries `ldd` lists,
 * /etc/passwd and /etc/group with a non-root `sandbox` user, and /workspace. About a second.
 * The root filesystem is streamed as a tar straight to the engine; nothing is written to disk.
 */
export async function buildOfflineBaseImage(
  engine: EngineClient,
  options: OfflineBaseImageOptions,
): Promise<string> {
  const nodeBinary = realpathSync(options.nodeBinary ?? process.execPath);
  const busyboxBinary = options.busyboxBinary ?? findOnPath('busybox');
  if (!busyboxBinary) {
    throw new SandboxError(
      'image-missing',
      'busybox is not installed, so the offline sandbox base image cannot be built: ' +
        'apt-get install -y --no-install-recommends busybox-static (or set AGENTDESK_SANDBOX_BASE_IMAGE to an image you have)',
    );
  }
  const userId = options.userId ?? 1000;
  const groupId = options.groupId ?? 1000;
  const archive = pack();
  const written = writeRootfs(archive, {
    nodeBinary,
    busyboxBinary: realpathSync(busyboxBinary),
    userId,
    groupId,
  });
  const imported = engine.importImage(Readable.from(archive), options.reference, imageChanges);
  await written;
  return imported;
}

async function writeRootfs(
  archive: Pack,
  input: { nodeBinary: string; busyboxBinary: string; userId: number; groupId: number },
): Promise<void> {
  const directory = (name: string, mode = 0o755) => archive.entry({ name, type: 'directory', mode });
  for (const name of [
    'bin',
    'sbin',
    'usr',
    'usr/bin',
    'usr/sbin',
    'usr/local',
    'usr/local/bin',
    'etc',
    'tmp',
    'proc',
    'sys',
    'dev',
  ]) {
    directory(name, name === 'tmp' ? 0o1777 : 0o755);
  }
  archive.entry({ name: 'workspace', type: 'directory', mode: 0o755, uid: input.userId, gid: input.groupId });
  archive.entry(
    { name: 'etc/passwd', mode: 0o644 },
    `root:x:0:0:root:/root:/bin/sh\nsandbox:x:${input.userId}:${input.groupId}:sandbox:/workspace:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n`,
  );
  archive.entry(
    { name: 'etc/group', mode: 0o644 },
    `root:x:0:\nsandbox:x:${input.groupId}:\nnogroup:x:65534:\n`,
  );
  await addFile(archive, input.busyboxBinary, 'bin/busybox', 0o755);
  for (const applet of busyboxApplets(input.busyboxBinary)) {
    if (applet === 'bin/busybox') continue;
    archive.entry({ name: applet, type: 'symlink', linkname: '/bin/busybox', mode: 0o777 });
  }
  await addFile(archive, input.nodeBinary, 'usr/local/bin/node', 0o755);
  const libraries = new Set([...sharedLibraries(input.nodeBinary), ...sharedLibraries(input.busyboxBinary)]);
  const libraryDirectories = new Set<string>();
  for (const library of libraries) {
    const target = library.replace(/^\//, '');
    for (
      let parent = posix.dirname(target);
      parent !== '.' && !libraryDirectories.has(parent);
      parent = posix.dirname(parent)
    ) {
      libraryDirectories.add(parent);
    }
  }
  for (const parent of [...libraryDirectories].sort()) directory(parent);
  for (const library of libraries)
    await addFile(archive, realpathSync(library), library.replace(/^\//, ''), 0o755);
  archive.finalize();
}

function addFile(archive: Pack, source: string, name: string, mode: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = archive.entry({ name, mode, size: statSync(source).size }, (error) =>
      error ? reject(error) : resolve(),
    );
    createReadStream(source)
      .on('error', reject)
      .pipe(entry as unknown as NodeJS.WritableStream);
  });
}

/** `bin/sh`, `usr/bin/timeout`, … (busybox --list-full). */
function busyboxApplets(busybox: string): string[] {
  return execFileSync(busybox, ['--list-full'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The absolute library paths `ldd` prints; none for a static binary. */
function sharedLibraries(binary: string): string[] {
  let output: string;
  try {
    output = execFileSync('ldd', [binary], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return []; // "not a dynamic executable"
  }
  return [...output.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)]
    .map((match) => match[1]!)
    .filter((path) => existsSync(path));
}

export function findOnPath(command: string): string | undefined {
  const directories = [
    ...(process.env['PATH'] ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/bin',
    '/sbin',
    '/bin',
  ];
  for (const directory of directories) {
    const candidate = join(directory, command);
    if (directory && existsSync(candidate)) return candidate;
  }
  return undefined;
}
