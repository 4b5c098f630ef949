import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import { recordAdminKeyStoredAtStart } from '../shared/audit/host-command-audit';
import { issueFirstAdminKey } from '../auth/bootstrap-access';

/**
 * The first start's admin key (see `issueFirstAdminKey`), with its audit record: the key alone is
 * returned, for the caller to print once. Of replicas starting together, the one that stored the
 * key records it.
 */
export async function issueFirstAdminKeyAtStart(
  repositories: Repositories,
  logger: Logger,
): Promise<string | undefined> {
  const issued = await issueFirstAdminKey(repositories, logger);
  if (issued === undefined) return undefined;
  await recordAdminKeyStoredAtStart(repositories, issued.stored, 'first-start');
  return issued.key;
}
