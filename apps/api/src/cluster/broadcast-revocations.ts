import type { Logger } from 'pino';
import type { ClusterSettings } from '../config/cluster-settings';
import { closeRedis, connectRedis } from './redis-connection';
import { keyRevocationChannel } from './shared-state';

/**
 * For processes that revoke keys without running the API (`npm run admin-key -- --revoke-others`):
 * publishes the revocations on the deployment's channel so running replicas drop the keys from
 * their caches at once. Returns false when there is no Redis to tell (the caches' TTL then bounds
 * how long a replica may still accept a key: at most 1 s without Redis).
 */
export async function broadcastRevocations(
  settings: ClusterSettings,
  apiKeyIds: readonly string[],
  logger: Logger,
): Promise<boolean> {
  if (settings.redisUrl === undefined || apiKeyIds.length === 0) return false;
  const redis = await connectRedis(settings.redisUrl, 'admin-key-command', logger);
  try {
    const channel = keyRevocationChannel(settings.redisKeyPrefix);
    for (const apiKeyId of apiKeyIds) await redis.publish(channel, apiKeyId);
    return true;
  } finally {
    await closeRedis(redis);
  }
}
