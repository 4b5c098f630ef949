import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DriverErrorFields } from './driver-error-causes';

const FIX_URL = 'set DATABASE_URL=sqlite:<a writable file>, e.g. sqlite:data/agentdesk.db';

/** Why creating a folder or file failed, in words (Node's system error codes). */
const fileSystemReasons: Readonly<Record<string, string>> = {
  EEXIST: 'a file with that name is in the way',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ENOENT: 'a part of the path does not exist',
};

/**
 * One line for an operator about a SQLite file that cannot be created, opened or written
 * (unwritable folder, a folder where the file should be, a file that is not a database, a full
 * disk); `undefined` for any other failure.
 */
export function explainSqliteOpenFailure(
  causes: readonly DriverErrorFields[],
  filename: string,
): string | undefined {
  const file = resolve(filename);
  for (const cause of causes) {
    const code = cause.code ?? '';
    const fileSystemReason = fileSystemReasons[code];
    if (fileSystemReason !== undefined && (cause.syscall === 'mkdir' || cause.syscall === 'open')) {
      const what = cause.syscall === 'mkdir' ? 'create the folder' : 'open';
      return `Cannot ${what} ${cause.path ?? dirname(file)} for the SQLite database ${file} (${fileSystemReason}) — ${FIX_URL}`;
    }
    if (code.startsWith('SQLITE_CANTOPEN')) return `${cannotOpen(file)} — ${FIX_URL}`;
    if (code.startsWith('SQLITE_READONLY'))
      return `The SQLite database ${file} is read-only for this process (the file, or its folder, where SQLite keeps the -wal and -shm files beside it) — make both writable, or ${FIX_URL}`;
    if (code === 'SQLITE_NOTADB')
      return `${file} is not a SQLite database — point DATABASE_URL at a new file or an AgentDesk database`;
    if (code.startsWith('SQLITE_CORRUPT'))
      return `The SQLite database ${file} is corrupt — restore a backup, or ${FIX_URL}`;
    if (code === 'SQLITE_FULL') return `The disk holding the SQLite database ${file} is full — free space`;
    if (code.startsWith('SQLITE_IOERR'))
      return `Reading or writing the SQLite database ${file} failed (${code}) — check the disk, or ${FIX_URL}`;
    if (code.startsWith('SQLITE_BUSY'))
      return `The SQLite database ${file} stays locked by another process (is another AgentDesk running on it?) — stop it, or ${FIX_URL}`;
  }
  return undefined;
}

// SQLite only says "unable to open database file"; the file system tells which mistake it was.
function cannotOpen(file: string): string {
  const kind = fileKind(file);
  if (kind === 'folder') return `The SQLite database path ${file} is a folder, not a file`;
  if (kind === 'other') return `The SQLite database path ${file} is not a regular file`;
  return `SQLite cannot ${kind === 'file' ? 'open' : 'create'} ${file} (its folder ${dirname(file)} does not accept files, or access is denied)`;
}

function fileKind(file: string): 'missing' | 'file' | 'folder' | 'other' {
  try {
    const stats = statSync(file);
    return stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}
