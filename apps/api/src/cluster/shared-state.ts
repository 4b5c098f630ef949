import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { describeRedisUrl, type ClusterSettings } from '../config/cluster-settings';
import { closeRedis, connectRedis } from './redis-connection';

/**
 * What this process shares with the other replicas: nothing (no `AGENTDESK_REDIS_URL`), or two
 * Redis connections — one for commands, one held in subscriber mode for broadcasts (a subscribed
 * connection cannot run other commands).
 */
export type SharedState =
  | { readonly kind: 'process' }
  | {
      readonly kind: 'redis';
      readonly commands: Redis;
      readonly subscriber: Redis;
      readonly keyPrefix: string;
      /** `redis://host:port/db`, without credentials. */
      readonly location: string;
    };

/** Connects to Redis when configured; throws `RedisUnavailableError` when it does not answer. */
export async function openSharedState(settings: ClusterSettings, logger: Logger): Promise<SharedState> {
  if (settings.redisUrl === undefined) return { kind: 'process' };
  const commands = await connectRedis(settings.redisUrl, 'commands', logger);
  try {
    const subscriber = await connectRedis(settings.redisUrl, 'subscriber', logger);
    return {
      kind: 'redis',
      commands,
      subscriber,
      keyPrefix: settings.redisKeyPrefix,
      location: describeRedisUrl(settings.redisUrl),
    };
  } catch (error) {
    await closeRedis(commands);
    throw error;
  }
}

export async function closeSharedState(state: SharedState): Promise<void> {
  if (state.kind === 'redis') await Promise.all([closeRedis(state.subscriber), closeRedis(state.commands)]);
}

/** The revocation channel of a deployment. */
export function keyRevocationChannel(keyPrefix: string): string {
  return `${keyPrefix}:api-key-revocations`;
}
