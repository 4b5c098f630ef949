import type { Kysely, Migration } from 'kysely';

/**
 * A sandbox build can start on a session's path (its sandbox needed the image and it was missing):
 * such a build is recorded with trigger `session`, the session and the session's owner, so operators
 * see why it ran. Both columns stay null for admin and start-up builds. No foreign keys: the history
 * outlives the session (a deleted session's build still happened).
 */
export function sessionTriggeredSandboxBuilds(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sandbox_builds').addColumn('session_id', 'text').execute();
      await db.schema.alterTable('sandbox_builds').addColumn('session_owner_user_id', 'text').execute();
    },
  };
}
