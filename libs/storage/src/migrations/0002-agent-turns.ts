import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * Agent turns: a lease on the session row makes a second concurrent turn a conflict (across API
 * replicas too) and lets a restarted server find turns that a crash interrupted. Structured-output
 * lab runs are stored for the console.
 */
export function agentTurns(dialect: DatabaseDialect): Migration {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sessions').addColumn('active_turn_id', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('active_turn_expires_at', 'bigint').execute();
      await db.schema
        .createIndex('sessions_active_turn')
        .on('sessions')
        .column('active_turn_expires_at')
        .execute();
      await db.schema
        .createIndex('messages_pending')
        .on('messages')
        .columns(['status', 'session_id'])
        .execute();

      await db.schema
        .createTable('structured_output_runs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('actor_principal_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('schema', json, (column) => column.notNull())
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('targets', json, (column) => column.notNull())
        .addColumn('results', json, (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('finished_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('structured_output_runs_created_at_id')
        .on('structured_output_runs')
        .columns(['created_at', 'id'])
        .execute();
    },
  };
}
