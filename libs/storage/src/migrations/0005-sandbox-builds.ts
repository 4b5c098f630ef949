import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * Sandbox image builds: who asked (or the start-up ensure), when, how it ended, how long it took,
 * the image ids before and after, and the build log, so the history and a finished build's log
 * outlive the process that ran it (and are visible from every replica).
 */
export function sandboxBuilds(dialect: DatabaseDialect): Migration {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sandbox_builds')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('tag', 'text', (column) => column.notNull())
        .addColumn('force', 'integer', (column) => column.notNull())
        .addColumn('trigger', 'text', (column) => column.notNull())
        .addColumn('actor_principal_id', 'text')
        .addColumn('actor_api_key_id', 'text')
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('image_id_before', 'text')
        .addColumn('image_id_after', 'text')
        .addColumn('error', 'text')
        .addColumn('events', json)
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('sandbox_builds_created_at_id')
        .on('sandbox_builds')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema.createIndex('sandbox_builds_status').on('sandbox_builds').column('status').execute();
    },
  };
}
