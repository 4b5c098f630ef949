import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { describeRedisUrl, type ClusterSettings } from '../config/cluster-settings';
import { RedisAvailability } from './redis-availability';
import { closeRedis, connectRedis } from './redis-connection';

/**
 * What this process shares with the other replicas: nothing (no `AGENTDESK_REDIS_URL`), or two
 * Redis connections — one for commands, one held in subscriber mode for broadcasts (a subscribed
 * connection cannot run other commands) — and whether Redis currently answers in time.
 */
export type SharedState =
  | { readonly kind: 'process' }
  | {
      readonly kind: 'redis';
      readonly commands: Redis;
      readonly subscriber: Redis;
      /** Every command of the request path goes through it (the deadline, the fallback). */
      readonly availability: RedisAvailability;
      readonly keyPrefix: string;
      /** `redis://host:port/db`, without credentials. */
      readonly location: string;
    };

/** Connects to Redis when configured; throws `RedisUnavailableError` when it does not answer. */
export async function openSharedState(settings: ClusterSettings, logger: Logger): Promise<SharedState> {
  if (settings.redisUrl === undefined) return { kind: 'process' };
  const location = describeRedisUrl(settings.redisUrl);
  const commands = await connectRedis(settings.redisUrl, 'commands', logger);
  try {
    const subscriber = await connectRedis(settings.redisUrl, 'subscriber', logger);
    const availability = new RedisAvailability(commands, settings.redisCommandTimeoutMs, location, logger);
    availability.start();
    return {
      kind: 'redis',
      commands,
      subscriber,
      availability,
      keyPrefix: settings.redisKeyPrefix,
      location,
    };
  } catch (error) {
    await closeRedis(commands);
    throw error;
  }
}

export async function closeSharedState(state: SharedState): Promise<void> {
  if (state.kind !== 'redis') return;
  // First, so closing the connections is not reported as Redis going away.
  state.availability.stop();
  await Promise.all([closeRedis(state.subscriber), closeRedis(state.commands)]);
}

/** The revocation channel of a deployment. */
export function keyRevocationChannel(keyPrefix: string): string {
  return `${keyPrefix}:api-key-revocations`;
}

/** Where rate limits are counted right now, for `/readyz`. */
export const rateLimitsStatusSchema = z.object({
  scope: z
    .enum(['shared', 'per-process'])
    .describe(
      'shared: counted in Redis, one limit across every replica; per-process: each replica counts alone (no Redis configured, or Redis unavailable)',
    ),
  redis: z
    .enum(['not-configured', 'available', 'unavailable'])
    .describe(
      'unavailable: the connection is down or Redis did not answer within AGENTDESK_REDIS_COMMAND_TIMEOUT_MS; requests go on without it',
    ),
});

export type RateLimitsStatus = z.infer<typeof rateLimitsStatusSchema>;

export function rateLimitsStatus(state: SharedState): RateLimitsStatus {
  if (state.kind === 'process') return { scope: 'per-process', redis: 'not-configured' };
  return state.availability.isAvailable
    ? { scope: 'shared', redis: 'available' }
    : { scope: 'per-process', redis: 'unavailable' };
}
