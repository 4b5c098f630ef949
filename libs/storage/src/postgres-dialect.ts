import { PostgresDialect } from 'kysely';
import pg from 'pg';

const INT8_OID = 20;
const JSON_OID = 114;
const JSONB_OID = 3802;

/**
 * Parsers scoped to this pool (not pg's global registry, which other code may rely on):
 * - `bigint` → number: timestamps are epoch milliseconds and counters stay far below 2^53;
 * - `json`/`jsonb` → raw text, so rows look exactly like SQLite's and one mapper serves both.
 */
const getTypeParser = ((oid: number, format?: 'text' | 'binary') => {
  if (oid === INT8_OID) return (value: string) => Number(value);
  if (oid === JSON_OID || oid === JSONB_OID) return (value: string) => value;
  return pg.types.getTypeParser(oid, format);
}) as typeof pg.types.getTypeParser;

/** Options for the PostgreSQL pool. */
export interface PostgresDialectOptions {
  readonly connectionString: string;
  /** Schema to put first on `search_path` (tests isolate themselves with one schema each). */
  readonly schema?: string;
  readonly poolSize?: number;
  /** Told about errors of idle pooled connections (server restart, terminated backend). */
  readonly onIdleClientError?: (error: Error) => void;
}

const schemaNamePattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** A Kysely PostgreSQL dialect over a `pg` pool. */
export function createPostgresDialect(options: PostgresDialectOptions): PostgresDialect {
  if (options.schema !== undefined && !schemaNamePattern.test(options.schema)) {
    throw new Error(`Invalid PostgreSQL schema name: ${options.schema}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    types: { getTypeParser },
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle client that loses its server emits 'error' on the pool; unhandled, that would crash the
  // process. The pool has already discarded the client and the next query connects afresh.
  pool.on('error', (error) => options.onIdleClientError?.(error));
  return new PostgresDialect({ pool });
}
