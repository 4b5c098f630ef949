import type { BuildLock } from '@agentdesk/sandbox';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { AppDatabase } from '@agentdesk/storage';

/**
 * Serializes sandbox image builds across API replicas sharing a PostgreSQL database (and an
 * engine): a session-level advisory lock on one dedicated pooled connection, held while the build
 * runs and released on that same connection. The lib re-checks the image after the lock, so a
 * replica that waited finds the image current and does not build again. The schema is part of the
 * key so separate installations (and test schemas) on one server never wait for each other.
 */
export function postgresBuildLock(database: AppDatabase, logger: Logger): BuildLock {
  return {
    withLock: (key, run) =>
      database.db.connection().execute(async (connection) => {
        const lockKey = `${database.schema ?? 'public'}:${key}`;
        const attempt = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_lock(hashtext(${lockKey})) as locked`.execute(connection);
        if (attempt.rows[0]?.locked !== true) {
          logger.info({ lockKey }, 'another replica is building the sandbox image; waiting for it');
          await sql`select pg_advisory_lock(hashtext(${lockKey}))`.execute(connection);
        }
        try {
          return await run();
        } finally {
          await sql`select pg_advisory_unlock(hashtext(${lockKey}))`.execute(connection);
        }
      }),
  };
}
