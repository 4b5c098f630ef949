import { z } from 'zod';
import { wholeNumberVariable } from '../config/environment-values';
import { Secret } from '../config/secret';

/**
 * How replicas share state. With a Redis URL, rate-limit counters live in Redis and key
 * revocations are broadcast on a channel; without one, each process counts alone and its cache of
 * verified keys is bounded by a short TTL instead.
 */
export interface ClusterSettings {
  /** `redis://…` or `rediss://…` (may hold a password); undefined: this process only. */
  readonly redisUrl: Secret | undefined;
  /**
   * Names the deployment inside Redis: every key and the revocation channel start with it, so
   * installations (and test runs) sharing one Redis never see each other's counters.
   */
  readonly redisKeyPrefix: string;
  /** How long a verified key is trusted without a database read (0: never cached). */
  readonly keyCacheTtlMs: number;
  /** Verified keys kept at most (least recently used leave first). */
  readonly keyCacheSize: number;
  /**
   * How long a request waits for Redis before going on without it: a call that misses it is
   * answered per process (as while Redis is away), and Redis is not asked again until a probe
   * answers in time. A healthy Redis answers in well under a millisecond.
   */
  readonly redisCommandTimeoutMs: number;
}

/** The environment variables of the cluster settings, with their meaning (also used in error messages). */
export const clusterEnvironment = {
  AGENTDESK_REDIS_URL:
    'redis://[user:password@]host:port[/db] shared by every replica (rate limits, key revocations)',
  AGENTDESK_REDIS_KEY_PREFIX: 'prefix of every Redis key and channel of this deployment',
  AGENTDESK_KEY_CACHE_TTL_MS:
    'milliseconds a verified API key is trusted without a database read (capped at 1000 without Redis; 0 turns the cache off)',
  AGENTDESK_KEY_CACHE_SIZE: 'verified API keys cached per process',
  AGENTDESK_REDIS_COMMAND_TIMEOUT_MS:
    'milliseconds a request waits for Redis before going on without it (limits per process until Redis answers in time again)',
} as const;

type ClusterVariable = keyof typeof clusterEnvironment;

/** Without Redis no replica hears of a revocation elsewhere: the TTL alone bounds the staleness. */
export const LOCAL_KEY_CACHE_MAX_TTL_MS = 1_000;
const DEFAULT_KEY_CACHE_TTL_MS = 5_000;
const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 150;

const environmentSchema = z.object({
  AGENTDESK_REDIS_URL: z
    .string()
    .trim()
    .refine(isRedisUrl, { error: 'must be redis://host:port[/db] or rediss://host:port[/db]' })
    .optional(),
  AGENTDESK_REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, {
      error: 'must be 1–64 letters, digits, "_", ".", ":" or "-"',
    })
    .optional(),
  AGENTDESK_KEY_CACHE_TTL_MS: wholeNumberVariable(0, 60_000),
  AGENTDESK_KEY_CACHE_SIZE: wholeNumberVariable(1, 1_000_000),
  AGENTDESK_REDIS_COMMAND_TIMEOUT_MS: wholeNumberVariable(10, 5_000),
});

/** Reads the cluster variables; problems name the variable, never its value (the URL may hold a password). */
export function readClusterSettings(
  environment: Readonly<Record<string, string | undefined>>,
): { settings: ClusterSettings; problems: [] } | { settings: undefined; problems: string[] } {
  const input = Object.fromEntries(
    Object.keys(clusterEnvironment).map((name) => [name, blankToUndefined(environment[name])]),
  );
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    return {
      settings: undefined,
      problems: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]) as ClusterVariable;
        return `${name} (${clusterEnvironment[name]}): ${issue.message}`;
      }),
    };
  }
  const values = parsed.data;
  const redisUrl =
    values.AGENTDESK_REDIS_URL === undefined ? undefined : new Secret(values.AGENTDESK_REDIS_URL);
  const requestedTtl = values.AGENTDESK_KEY_CACHE_TTL_MS ?? DEFAULT_KEY_CACHE_TTL_MS;
  return {
    problems: [],
    settings: {
      redisUrl,
      redisKeyPrefix: values.AGENTDESK_REDIS_KEY_PREFIX ?? 'agentdesk',
      keyCacheTtlMs:
        redisUrl === undefined ? Math.min(requestedTtl, LOCAL_KEY_CACHE_MAX_TTL_MS) : requestedTtl,
      keyCacheSize: values.AGENTDESK_KEY_CACHE_SIZE ?? 10_000,
      redisCommandTimeoutMs: values.AGENTDESK_REDIS_COMMAND_TIMEOUT_MS ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    },
  };
}

/** Where Redis is, without credentials: `redis://host:port/db`. */
export function describeRedisUrl(url: Secret): string {
  try {
    const parsed = new URL(url.reveal());
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '' ? '/0' : parsed.pathname}`;
  } catch {
    return 'redis://[unparsable]';
  }
}

/** The settings without secrets, for the start-up log line. */
export function describeClusterSettings(settings: ClusterSettings): Record<string, unknown> {
  return {
    redis: settings.redisUrl === undefined ? 'not set' : describeRedisUrl(settings.redisUrl),
    redisKeyPrefix: settings.redisKeyPrefix,
    keyCacheTtlMs: settings.keyCacheTtlMs,
    keyCacheSize: settings.keyCacheSize,
    redisCommandTimeoutMs: settings.redisCommandTimeoutMs,
  };
}

function isRedisUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
