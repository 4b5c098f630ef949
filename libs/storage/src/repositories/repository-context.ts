import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../database-schema';

/** What every repository needs: the database and a clock. */
export interface RepositoryContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}
