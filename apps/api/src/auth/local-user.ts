import { StorageError, StorageErrorCode, type Repositories, type User } from '@agentdesk/storage';

/**
 * A local (non-portal) user by external id, created when missing. Two requests (or two replicas
 * starting together) creating the same user converge on one row.
 */
export async function findOrCreateLocalUser(
  repositories: Repositories,
  externalId: string,
  displayName: string | null,
): Promise<User> {
  const existing = await repositories.users.findByExternalId(null, externalId);
  if (existing !== undefined) return existing;
  try {
    return await repositories.users.create({ externalId, displayName });
  } catch (error) {
    if (error instanceof StorageError && error.code === StorageErrorCode.Conflict) {
      const winner = await repositories.users.findByExternalId(null, externalId);
      if (winner !== undefined) return winner;
    }
    throw error;
  }
}
