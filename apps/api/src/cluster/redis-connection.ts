import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Secret } from '../config/secret';
import { describeRedisUrl } from '../config/cluster-settings';

/** Thrown at start when `AGENTDESK_REDIS_URL` is set but Redis does not answer; says what to do. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** How long a start waits for Redis before giving up. */
const CONNECT_TIMEOUT_MS = 3_000;
/**
 * A command that takes longer fails: the backstop of every connection (the start's PING, the
 * admin-key command's publish). Requests never wait this long: the API's calls go through
 * `RedisAvailability`, with a deadline of `AGENTDESK_REDIS_COMMAND_TIMEOUT_MS` (150 ms by default).
 */
const COMMAND_TIMEOUT_MS = 3_000;

/**
 * Opens one Redis connection and checks it with a PING. Once open, the client reconnects on its
 * own forever (backing off up to 2 s); while it is disconnected every command fails at once
 * (`enableOfflineQueue: false`) instead of queueing behind the outage, so callers can fall back
 * without making the request wait.
 */
export async function connectRedis(url: Secret, purpose: string, logger: Logger): Promise<Redis> {
  const location = describeRedisUrl(url);
  const client = new Redis(url.reveal(), {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectionName: `agentdesk-${purpose}`,
  });
  let lastError: unknown;
  // Without a listener ioredis prints every failed reconnect; one warning per outage is enough.
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    // The socket's own error (ECONNREFUSED, ENOTFOUND, …) says more than ioredis's "Connection is closed".
    const reason = describeConnectionError(lastError ?? error);
    throw new RedisUnavailableError(
      `AGENTDESK_REDIS_URL: cannot reach Redis at ${location} (${reason}). Start Redis there, fix the URL, ` +
        'or unset AGENTDESK_REDIS_URL to run this replica on its own (rate limits per process).',
      { cause: error },
    );
  }
  let connected = true;
  client.on('close', () => {
    if (!connected) return;
    connected = false;
    logger.warn(
      { redis: location, connection: purpose, reason: describeConnectionError(lastError) },
      'lost the connection to Redis; reconnecting',
    );
  });
  client.on('ready', () => {
    if (connected) return;
    connected = true;
    logger.info({ redis: location, connection: purpose }, 'reconnected to Redis');
  });
  return client;
}

/** Closes a connection, waiting for pending replies when it is up. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
}

function describeConnectionError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return 'no answer';
}
