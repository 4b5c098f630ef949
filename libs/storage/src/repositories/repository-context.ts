import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DatabaseDialect } from '../database-dialect';
import type { Database } from '../database-schema';

/** What every repository needs: the database, its engine (for statements one engine can merge) and a clock. */
export interface RepositoryContext {
  readonly db: Kysely<Database>;
  readonly dialect: DatabaseDialect;
  readonly clock: Clock;
}
