import { Kysely } from 'kysely';
import type { Database } from './database-schema';
import type { DatabaseDialect } from './database-dialect';
import { createPostgresDialect } from './postgres-dialect';
import { createSqliteDialect, SQLITE_MEMORY } from './sqlite-dialect';

/** Where the database is. */
export interface DatabaseConfig {
  /**
   * `postgres://…` / `postgresql://…` for PostgreSQL; `sqlite:<path>`, `sqlite::memory:`,
   * `file:<path>` or a bare file path for SQLite (e.g. `sqlite:data/agentdesk.db`).
   */
  readonly url: string;
  /** PostgreSQL only: schema placed first on `search_path`. */
  readonly schema?: string;
  /** PostgreSQL only: connection pool size (default 10). */
  readonly poolSize?: number;
  /** PostgreSQL only: told about errors of idle pooled connections (the API logs them). */
  readonly onIdleClientError?: (error: Error) => void;
}

/** An open database: the Kysely instance, which engine it is, and how to close it. */
export interface AppDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: DatabaseDialect;
  /** PostgreSQL schema the database lives in, when not the default (tests isolate themselves this way). */
  readonly schema?: string;
  /** Closes the pool or file handle. */
  destroy(): Promise<void>;
}

/** Which engine a URL selects, and its location (file name or connection string). */
export type DatabaseTarget =
  | { readonly dialect: 'sqlite'; readonly filename: string }
  | { readonly dialect: 'postgres'; readonly connectionString: string };

/** Parses a database URL; throws on a scheme neither engine understands. */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { dialect: 'postgres', connectionString: trimmed };
  const sqliteMatch = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(trimmed);
  if (sqliteMatch !== null) {
    const filename = sqliteMatch[1] ?? '';
    if (filename.length === 0)
      throw new Error('A SQLite database URL needs a file name, e.g. sqlite:data/agentdesk.db');
    return { dialect: 'sqlite', filename };
  }
  // A Windows drive letter looks like a scheme; anything else with `scheme:` is a mistake.
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && trimmed !== SQLITE_MEMORY && !/^[a-z]:[\\/]/i.test(trimmed)) {
    throw new Error(
      `Unsupported database URL scheme in "${trimmed.split(':')[0]}:…"; use postgres:// or sqlite:`,
    );
  }
  if (trimmed.length === 0) throw new Error('The database URL is empty');
  return { dialect: 'sqlite', filename: trimmed };
}

/**
 * Opens the database a URL names: better-sqlite3 (WAL) for SQLite, a `pg` pool for PostgreSQL.
 * Does not migrate: call `migrateToLatest` once at start.
 */
export function openDatabase(config: DatabaseConfig): AppDatabase {
  const target = parseDatabaseUrl(config.url);
  const dialect =
    target.dialect === 'sqlite'
      ? createSqliteDialect(target.filename)
      : createPostgresDialect({
          connectionString: target.connectionString,
          ...(config.schema === undefined ? {} : { schema: config.schema }),
          ...(config.poolSize === undefined ? {} : { poolSize: config.poolSize }),
          ...(config.onIdleClientError === undefined ? {} : { onIdleClientError: config.onIdleClientError }),
        });
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    dialect: target.dialect,
    ...(target.dialect === 'postgres' && config.schema !== undefined && { schema: config.schema }),
    destroy: () => db.destroy(),
  };
}
