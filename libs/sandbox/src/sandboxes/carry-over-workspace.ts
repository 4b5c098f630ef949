import { type Readable } from 'node:stream';
import { extract, pack, type Headers, type Pack } from 'tar-stream';
import { type EngineClient } from '../engine/engine-client';
import { WORKSPACE_PATH } from './container-spec';

/** The archive of `/workspace` names every entry below the directory's own base name. */
const archivePrefix = `${WORKSPACE_PATH.slice(1)}/`;

/**
 * Copies `/workspace` of one container into another through the engine's archive API, streamed
 * (a workspace may be hundreds of MiB). Both roots are read-only, so the archive cannot be put at
 * `/` as it comes: its names (`workspace/src/a.ts`) are rewritten relative to `/workspace` and it
 * is put there. Ownership and modes travel in the tar headers. Rejects with the engine's reason
 * (the source gone, the target's workspace full, …); the target may then hold part of the files.
 */
export async function carryOverWorkspace(engine: EngineClient, fromId: string, toId: string): Promise<void> {
  const source = await engine.getArchive(fromId, WORKSPACE_PATH);
  const repacked = pack();
  // Whichever side fails first tears the other down; its error is the one that says what happened.
  const failures: unknown[] = [];
  const copying = repack(source, repacked).catch((error: unknown) => {
    failures.push(error);
    repacked.destroy(error as Error);
  });
  const putting = engine
    .putArchive(toId, WORKSPACE_PATH, repacked as unknown as Readable)
    .catch((error: unknown) => {
      failures.push(error);
      // The engine stopped reading: stop reading the source too, or the copy waits for ever.
      source.destroy(error as Error);
    });
  await Promise.all([copying, putting]);
  if (failures.length > 0) throw failures[0];
}

async function repack(source: Readable, target: Pack): Promise<void> {
  const extractor = extract();
  source.on('error', (error) => extractor.destroy(error));
  source.pipe(extractor as unknown as NodeJS.WritableStream);
  for await (const entry of extractor) {
    const header = relativeHeader(entry.header);
    if (!header) {
      entry.resume(); // `workspace/` itself: the new container has its own (same owner and mode)
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const sink = target.entry(header, (error) => (error ? reject(error) : resolve()));
      entry.on('error', reject);
      entry.pipe(sink);
    });
  }
  target.finalize();
}

/** The header with its name (and a hard link's target) relative to `/workspace`; none for the root. */
function relativeHeader(header: Headers): Headers | undefined {
  const name = stripPrefix(header.name);
  if (!name) return undefined;
  const linkname =
    header.type === 'link' && header.linkname ? stripPrefix(header.linkname) : (header.linkname ?? undefined);
  return {
    name,
    type: header.type,
    mode: header.mode,
    uid: header.uid,
    gid: header.gid,
    uname: header.uname,
    gname: header.gname,
    size: header.size,
    mtime: header.mtime,
    ...(linkname ? { linkname } : {}),
  };
}

function stripPrefix(name: string): string | undefined {
  if (!name.startsWith(archivePrefix)) return undefined;
  return name.slice(archivePrefix.length) || undefined;
}
