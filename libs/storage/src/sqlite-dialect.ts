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
  database.function('lower', { deterministic: true }, lowerLikePostgres);
  return new SqliteDialect({ database: withStatementCache(database) });
}

/** Distinct SQL texts whose prepared statements are kept (the API issues a few dozen). */
const statementCacheSize = 500;

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs more than running a
 * keyed lookup. better-sqlite3 statements are reusable (and calls are synchronous, so one statement
 * is never used by two queries at once), so they are kept per SQL text, least recently used out.
 */
function withStatementCache(database: BetterSqlite3.Database) {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): BetterSqlite3.Statement {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/**
 * SQLite's own `lower()` folds ASCII only, PostgreSQL's (C.UTF-8) every letter, one code point at a
 * time: on SQLite a search for "élodie" missed "Élodie". This one replaces it on every connection,
 * so the people keys (generated columns and their indexes: migration 0020 rebuilt them), the prefix
 * a search starts from and every other `lower()` fold as PostgreSQL does — one code point in, one
 * out ("İ" → "i", "Σ" → "σ" wherever it stands), not JavaScript's whole-string rules.
 */
export function lowerLikePostgres(value: unknown): unknown {
  if (typeof value !== 'string')
    return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  if (isAscii(value)) return value.toLowerCase();
  let folded = '';
  for (const character of value) {
    const lower = character.toLowerCase();
    folded += String.fromCodePoint(lower.codePointAt(0)!);
  }
  return folded;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}
