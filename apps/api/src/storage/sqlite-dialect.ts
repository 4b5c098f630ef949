import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect } from 'kysely';

/** An in-memory SQLite database (tests). */
export const SQLITE_MEMORY = ':memory:';

/**
 * Opens a better-sqlite3 database tuned for an API process: WAL (readers never block the
 * writer), `synchronous = NORMAL` (durable at checkpoints, safe with WAL), foreign keys on (off
 * by default in SQLite), and a busy timeout so a second process waits instead of failing.
 * The parent folder is created, so the default `data/agentdesk.db` needs no setup.
 */
export function createSqliteDialect(filename: string): SqliteDialect {
  if (filename !== SQLITE_MEMORY) mkdirSync(dirname(filename), { recursive: true });
  const database = new BetterSqlite3(filename);
  if (filename !== SQLITE_MEMORY) database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database });
}
