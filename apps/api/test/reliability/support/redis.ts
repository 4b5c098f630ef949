import { Redis } from 'ioredis';

/** The machine's Redis (no persistence); every test uses a key prefix of its own. */
export const testRedisUrl = 'redis://127.0.0.1:6379/0';

/** Deletes every key under `<prefix>:` (a test's counters), so runs leave nothing behind. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
