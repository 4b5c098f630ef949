import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * Audit records keep the server's own request id in `request_id`; a client's `X-Request-Id` is
 * untrusted (anyone can send any id, or another request's id), so it gets a column of its own.
 * `details` holds what a listing showed (its filter and how many records it returned).
 */
export function auditClientRequestId(dialect: DatabaseDialect): Migration {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('audit_log').addColumn('client_request_id', 'text').execute();
      await db.schema.alterTable('audit_log').addColumn('details', json).execute();
    },
  };
}
