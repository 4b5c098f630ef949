import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * The initial schema. Written once for both engines: the only per-engine choices are the JSON
 * column type (`jsonb` vs `text`) and one PostgreSQL planner statistic; everything else uses
 * types both accept with the same meaning.
 */
export function initialSchema(dialect: DatabaseDialect): Migration {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('portal_id', 'text')
        .addColumn('external_id', 'text', (column) => column.notNull())
        .addColumn('display_name', 'text')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      // NULLs are distinct in unique indexes on both engines, so portal and non-portal users
      // each get their own partial unique index.
      await db.schema
        .createIndex('users_portal_external_id_unique')
        .on('users')
        .columns(['portal_id', 'external_id'])
        .unique()
        .where(sql.ref('portal_id'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('users_local_external_id_unique')
        .on('users')
        .column('external_id')
        .unique()
        .where(sql.ref('portal_id'), 'is', null)
        .execute();
      await db.schema.createIndex('users_created_at_id').on('users').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('prefix', 'text', (column) => column.notNull())
        .addColumn('secret_hash', 'text', (column) => column.notNull())
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('owner_user_id', 'text', (column) => column.references('users.id'))
        .addColumn('portal_id', 'text')
        .addColumn('trust_client_user_id', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('label', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addCheckConstraint('api_keys_role_valid', sql`role in ('user', 'portal', 'viewer', 'admin')`)
        // A portal key belongs to a portal and no user; every other key belongs to one user.
        .addCheckConstraint(
          'api_keys_owner_matches_role',
          sql`(role = 'portal' and portal_id is not null and owner_user_id is null) or (role <> 'portal' and owner_user_id is not null)`,
        )
        // Only a portal can be trusted to name its end users.
        .addCheckConstraint(
          'api_keys_trust_only_portal',
          sql`trust_client_user_id = 0 or (trust_client_user_id = 1 and role = 'portal')`,
        )
        .execute();
      await db.schema
        .createIndex('api_keys_secret_hash_unique')
        .on('api_keys')
        .column('secret_hash')
        .unique()
        .execute();
      await db.schema
        .createIndex('api_keys_created_at_id')
        .on('api_keys')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('owner_user_id', 'text', (column) => column.notNull().references('users.id'))
        .addColumn('portal_id', 'text')
        .addColumn('label', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('model', 'text')
        .addColumn('system_prompt', 'text')
        .addColumn('metadata', json, (column) => column.notNull())
        .addColumn('input_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('output_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('thinking_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('cached_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('message_count', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .addCheckConstraint('sessions_status_valid', sql`status in ('open', 'closed')`)
        .execute();
      // Keyset pagination reads these backwards (newest first): the admin list, the owner's list
      // (also the admin "filter by user"), and the admin "filter by status".
      await db.schema
        .createIndex('sessions_created_at_id')
        .on('sessions')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('sessions_owner_created_at_id')
        .on('sessions')
        .columns(['owner_user_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('sessions_status_created_at_id')
        .on('sessions')
        .columns(['status', 'created_at', 'id'])
        .execute();
      if (dialect === 'postgres') {
        // Without statistics on lower(label), PostgreSQL guesses that `lower(label) LIKE '%term%'`
        // matches ~0.03% of rows and, with a LIMIT, prefers fetching every row of the other
        // filters and sorting them (≈40 ms at 1M sessions) over walking the ordered index (≈1 ms).
        // Expression statistics give ANALYZE a histogram of lower(label) to estimate from.
        await sql`create statistics sessions_label_lower_statistics on (lower(label)) from sessions`.execute(
          db,
        );
      }

      await db.schema
        .createTable('messages')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('session_id', 'text', (column) =>
          column.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('seq', 'integer', (column) => column.notNull())
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('content', json, (column) => column.notNull())
        .addColumn('tool_calls', json)
        .addColumn('tool_call_id', 'text')
        .addColumn('input_tokens', 'bigint')
        .addColumn('output_tokens', 'bigint')
        .addColumn('thinking_tokens', 'bigint')
        .addColumn('cached_tokens', 'bigint')
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('error', json)
        .addColumn('model', 'text')
        .addColumn('compression_events', json)
        .addColumn('idempotency_key', 'text')
        .addColumn('started_at', 'bigint', (column) => column.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addCheckConstraint('messages_role_valid', sql`role in ('system', 'user', 'assistant', 'tool')`)
        .addCheckConstraint('messages_status_valid', sql`status in ('pending', 'complete', 'failed')`)
        .execute();
      // The unique (session, seq) index is both the transcript order and the last line of
      // defence against two messages getting the same number.
      await db.schema
        .createIndex('messages_session_seq_unique')
        .on('messages')
        .columns(['session_id', 'seq'])
        .unique()
        .execute();
      await db.schema
        .createIndex('messages_session_idempotency_key_unique')
        .on('messages')
        .columns(['session_id', 'idempotency_key'])
        .unique()
        .execute();

      await db.schema
        .createTable('tool_results')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('session_id', 'text', (column) =>
          column.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('message_id', 'text', (column) => column.references('messages.id').onDelete('cascade'))
        .addColumn('tool_call_id', 'text', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('char_count', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('tool_results_session_tool_call_unique')
        .on('tool_results')
        .columns(['session_id', 'tool_call_id'])
        .unique()
        .execute();
      // Deleting a message cascades here; without an index that is a full scan per message.
      await db.schema
        .createIndex('tool_results_message_id')
        .on('tool_results')
        .column('message_id')
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('at', 'bigint', (column) => column.notNull())
        .addColumn('actor_principal_id', 'text', (column) => column.notNull())
        .addColumn('actor_api_key_id', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('target_user_id', 'text')
        .addColumn('session_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('request_id', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at_id').on('audit_log').columns(['at', 'id']).execute();
      await db.schema
        .createIndex('audit_log_target_user_at_id')
        .on('audit_log')
        .columns(['target_user_id', 'at', 'id'])
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['audit_log', 'tool_results', 'messages', 'sessions', 'api_keys', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
