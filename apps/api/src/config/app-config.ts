import { isIP } from 'node:net';
import { z } from 'zod';
import { flagVariable, wholeNumberVariable } from './environment-values';
import { API_KEY_FORMAT_DESCRIPTION, parseApiKey } from '../core/api-key-format';
import { parseDatabaseUrl } from '@agentdesk/storage';
import {
  parseModelRoutingSettings,
  providerEnvironment,
  type ModelRoutingSettings,
} from './provider-settings';
import { defaultTurnSettings, type TurnSettings } from './turn-settings';
import {
  describeSandboxSettings,
  readSandboxSettings,
  sandboxEnvironment,
  type SandboxSettings,
} from './sandbox-settings';
import { defaultUsageMeterSettings, type UsageMeterSettings } from './usage-meter-settings';
import { defaultConsoleSessionSettings, type ConsoleSessionSettings } from './console-session-settings';
import { Secret } from './secret';
import { readSsoSettings, ssoEnvironment, type SsoSettings } from './sso-settings';
import {
  clusterEnvironment,
  describeClusterSettings,
  readClusterSettings,
  type ClusterSettings,
} from './cluster-settings';
import { qaRunEnvironment, readQaRunSettings, type QaRunSettings } from './qa-run-settings';

/** The zero-setup default: a SQLite file under `data/` (relative to the working directory). */
export const DEFAULT_DATABASE_URL = 'sqlite:data/agentdesk.db';

/** Log levels pino understands. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** The validated configuration of the API. Secrets are `Secret`s, never plain strings. */
export interface AppConfig {
  readonly database: {
    /** `sqlite:<file>` (default `sqlite:data/agentdesk.db`) or `postgres://…`. */
    readonly url: Secret;
    readonly poolSize: number;
  };
  readonly http: {
    readonly host: string;
    readonly port: number;
    /** Largest accepted request body (413 above). */
    readonly bodyLimitBytes: number;
  };
  readonly rateLimit: {
    /** Requests per principal (API key, or the dev-mode anonymous principal) per window. */
    readonly max: number;
    readonly windowMs: number;
    /** Failed credentials per (client address, key id) per window before further failures get 429 (valid keys always pass). */
    readonly authFailuresMax: number;
  };
  readonly auth: {
    /** An admin key to ensure at start (`AGENTDESK_ADMIN_KEY`); otherwise one is generated on first start. */
    readonly adminKey: Secret | undefined;
    /** Requests without a credential act as the local anonymous user. Loopback only. */
    readonly devMode: boolean;
  };
  readonly logLevel: LogLevel;
  /** Response headers that depend on how the API is reached (see `http/security-headers.ts`). */
  readonly securityHeaders: {
    /** Served over HTTPS (through a TLS proxy): send Strict-Transport-Security (`AGENTDESK_HSTS`). */
    readonly hsts: boolean;
  };
  /** Provider credentials, base URLs, model routes and the default model (see `provider-settings.ts`). */
  readonly models: ModelRoutingSettings;
  readonly turns: TurnSettings;
  /** Per-session Docker sandboxes (see `sandbox-settings.ts` for the variables). */
  readonly sandbox: SandboxSettings;
  /** How metered model calls are batched into `usage_events` (see `usage/metering`). */
  readonly usage: UsageMeterSettings;
  /** Redis shared by replicas, and the verified-key cache (see `cluster/cluster-settings.ts`). */
  readonly cluster: ClusterSettings;
  /** How long a console sign-in lasts (see `console-session-settings.ts`). */
  readonly consoleSessions: ConsoleSessionSettings;
  /** OpenID Connect single sign-on; undefined when off (see `sso-settings.ts`). */
  readonly sso: SsoSettings | undefined;
  /** How QA suite runs execute their cells (see `qa-run-settings.ts`). */
  readonly qaRuns: QaRunSettings;
}

/** Environment variables the API reads, with their meaning (also used in error messages). */
export const configEnvironment = {
  DATABASE_URL: 'database URL: sqlite:<file> or postgres://…',
  DATABASE_POOL_SIZE: 'PostgreSQL pool size',
  HOST: 'address to listen on',
  PORT: 'port to listen on',
  AGENTDESK_BODY_LIMIT_BYTES: 'largest request body in bytes',
  AGENTDESK_RATE_LIMIT_MAX: 'requests per principal per window',
  AGENTDESK_RATE_LIMIT_WINDOW_MS: 'rate-limit window in milliseconds',
  AGENTDESK_AUTH_FAILURE_LIMIT: 'failed credentials per client address and key id per window',
  AGENTDESK_ADMIN_KEY: 'admin API key to ensure at start',
  AGENTDESK_DEV_MODE: 'true to accept requests without a key as the anonymous user',
  AGENTDESK_HSTS: 'true when clients reach the API over HTTPS: answers carry Strict-Transport-Security',
  LOG_LEVEL: 'log level',
  AGENTDESK_SCRATCHPAD_BUDGET_TOKENS: 'tokens the tool scratchpad of a turn may use per model call',
  AGENTDESK_HISTORY_BUDGET_TOKENS:
    'tokens of earlier conversation an agent turn sends the model (the newest messages that fit)',
  AGENTDESK_MAX_MODEL_CALLS: 'model calls per agent turn (the last one answers without tools)',
  AGENTDESK_TURN_LEASE_MS:
    'lease in milliseconds a running turn holds on its session (renewed every third of it; a crashed turn frees the session after it)',
  AGENTDESK_USAGE_FLUSH_INTERVAL_MS: 'longest a metered model call waits in memory before it is written',
  AGENTDESK_USAGE_BATCH_SIZE: 'metered model calls per batch insert (a full batch is written at once)',
  AGENTDESK_USAGE_MAX_BUFFERED:
    'metered model calls kept in memory while the database is down (oldest dropped beyond)',
  AGENTDESK_CONSOLE_SESSION_IDLE_MS: 'milliseconds a console sign-in may go unused before it ends',
  AGENTDESK_CONSOLE_SESSION_MAX_MS: 'milliseconds a console sign-in lasts at most, however much it is used',
} as const;

type EnvironmentName = keyof typeof configEnvironment;

/**
 * Every variable the one config reads: the API's own, the model settings' (`provider-settings.ts`)
 * the sandbox's (`sandbox-settings.ts`) and the cluster's (`cluster-settings.ts`), each with its meaning (for the README's table).
 */
export const allConfigEnvironment = {
  ...configEnvironment,
  ...providerEnvironment,
  ...sandboxEnvironment,
  ...clusterEnvironment,
  ...ssoEnvironment,
  ...qaRunEnvironment,
} as const;

/** Thrown by `loadConfig`: lists every invalid variable by name, never by value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

/** True for an address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

const integer = (minimum: number, maximum: number, fallback: number) =>
  wholeNumberVariable(minimum, maximum).transform((value) => value ?? fallback);

const booleanFlag = flagVariable.transform((value) => value ?? false);

const environmentSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .optional()
    .transform((value) => value ?? DEFAULT_DATABASE_URL)
    .refine(isSupportedDatabaseUrl, { error: 'must be sqlite:<file> or postgres://user@host:port/database' })
    .transform((value) => new Secret(value)),
  DATABASE_POOL_SIZE: integer(1, 200, 10),
  HOST: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .optional()
    .transform((value) => value ?? '127.0.0.1'),
  PORT: integer(0, 65_535, 3000),
  AGENTDESK_BODY_LIMIT_BYTES: integer(1024, 64 * 1024 * 1024, 1024 * 1024),
  AGENTDESK_RATE_LIMIT_MAX: integer(1, 1_000_000, 600),
  AGENTDESK_RATE_LIMIT_WINDOW_MS: integer(1000, 24 * 60 * 60 * 1000, 60_000),
  AGENTDESK_AUTH_FAILURE_LIMIT: integer(1, 1_000_000, 30),
  AGENTDESK_ADMIN_KEY: z
    .string()
    .optional()
    // The message names the format, never the value: this variable is a secret.
    .refine((value) => value === undefined || value === '' || parseApiKey(value.trim()) !== undefined, {
      error: `must look like ${API_KEY_FORMAT_DESCRIPTION}`,
    })
    .transform((value) =>
      value === undefined || value.trim() === '' ? undefined : new Secret(value.trim()),
    ),
  AGENTDESK_DEV_MODE: booleanFlag,
  AGENTDESK_HSTS: booleanFlag,
  AGENTDESK_SCRATCHPAD_BUDGET_TOKENS: integer(256, 1_000_000, defaultTurnSettings.scratchpadBudgetTokens),
  AGENTDESK_HISTORY_BUDGET_TOKENS: integer(256, 10_000_000, defaultTurnSettings.historyBudgetTokens),
  AGENTDESK_HISTORY_CACHE_TOKENS: integer(0, 100_000_000, defaultTurnSettings.historyCacheTokens),
  AGENTDESK_MAX_MODEL_CALLS: integer(1, 64, defaultTurnSettings.maxModelCalls),
  // At least a second so renewals (every third) are not a database storm; at most two minutes so
  // a crash never blocks a session for long.
  AGENTDESK_TURN_LEASE_MS: integer(1_000, 120_000, defaultTurnSettings.leaseMs),
  AGENTDESK_USAGE_FLUSH_INTERVAL_MS: integer(10, 60_000, defaultUsageMeterSettings.flushIntervalMs),
  // SQLite binds at most 32,766 parameters per statement: 1,000 rows of 15 columns fit.
  AGENTDESK_USAGE_BATCH_SIZE: integer(1, 1_000, defaultUsageMeterSettings.batchSize),
  AGENTDESK_USAGE_MAX_BUFFERED: integer(100, 10_000_000, defaultUsageMeterSettings.maxBufferedEvents),
  // A minute at least (the last-seen time is written at most once a minute); a week idle, 30 days in all at most.
  AGENTDESK_CONSOLE_SESSION_IDLE_MS: integer(
    60_000,
    7 * 24 * 60 * 60 * 1000,
    defaultConsoleSessionSettings.idleTimeoutMs,
  ),
  AGENTDESK_CONSOLE_SESSION_MAX_MS: integer(
    60_000,
    30 * 24 * 60 * 60 * 1000,
    defaultConsoleSessionSettings.absoluteTimeoutMs,
  ),
  LOG_LEVEL: z
    .enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` })
    .optional()
    .transform((value) => value ?? 'info'),
});

/**
 * Reads and validates the configuration from environment variables; throws `ConfigError` listing
 * every problem at once (fail fast at start, before anything listens).
 */
export function loadConfig(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): AppConfig {
  const input = Object.fromEntries(Object.keys(configEnvironment).map((name) => [name, environment[name]]));
  const parsed = environmentSchema.safeParse(input);
  const sandbox = readSandboxSettings(environment);
  const models = parseModelRoutingSettings(environment);
  const cluster = readClusterSettings(environment);
  const sso = readSsoSettings(environment);
  const qaRuns = readQaRunSettings(environment);
  if (
    !parsed.success ||
    sandbox.settings === undefined ||
    models.settings === undefined ||
    cluster.settings === undefined ||
    qaRuns.settings === undefined ||
    sso.problems.length > 0
  ) {
    throw new ConfigError([
      ...(parsed.error?.issues ?? []).map((issue) => {
        const name = String(issue.path[0] ?? 'configuration') as EnvironmentName;
        return `${name} (${configEnvironment[name] ?? 'setting'}): ${issue.message}`;
      }),
      ...models.problems,
      ...sandbox.problems,
      ...cluster.problems,
      ...sso.problems,
      ...qaRuns.problems,
    ]);
  }
  const values = parsed.data;
  const config: AppConfig = {
    models: models.settings,
    sandbox: sandbox.settings,
    cluster: cluster.settings,
    turns: {
      ...defaultTurnSettings,
      scratchpadBudgetTokens: values.AGENTDESK_SCRATCHPAD_BUDGET_TOKENS,
      historyBudgetTokens: values.AGENTDESK_HISTORY_BUDGET_TOKENS,
      historyCacheTokens: values.AGENTDESK_HISTORY_CACHE_TOKENS,
      maxModelCalls: values.AGENTDESK_MAX_MODEL_CALLS,
      leaseMs: values.AGENTDESK_TURN_LEASE_MS,
    },
    usage: {
      flushIntervalMs: values.AGENTDESK_USAGE_FLUSH_INTERVAL_MS,
      batchSize: values.AGENTDESK_USAGE_BATCH_SIZE,
      maxBufferedEvents: values.AGENTDESK_USAGE_MAX_BUFFERED,
    },
    database: { url: values.DATABASE_URL, poolSize: values.DATABASE_POOL_SIZE },
    http: { host: values.HOST, port: values.PORT, bodyLimitBytes: values.AGENTDESK_BODY_LIMIT_BYTES },
    rateLimit: {
      max: values.AGENTDESK_RATE_LIMIT_MAX,
      windowMs: values.AGENTDESK_RATE_LIMIT_WINDOW_MS,
      authFailuresMax: values.AGENTDESK_AUTH_FAILURE_LIMIT,
    },
    auth: { adminKey: values.AGENTDESK_ADMIN_KEY, devMode: values.AGENTDESK_DEV_MODE },
    securityHeaders: { hsts: values.AGENTDESK_HSTS },
    consoleSessions: {
      idleTimeoutMs: values.AGENTDESK_CONSOLE_SESSION_IDLE_MS,
      absoluteTimeoutMs: values.AGENTDESK_CONSOLE_SESSION_MAX_MS,
    },
    sso: sso.settings,
    qaRuns: qaRuns.settings,
    logLevel: values.LOG_LEVEL,
  };
  assertConsistent(config);
  return config;
}

/** Rules that involve several variables. */
function assertConsistent(config: AppConfig): void {
  if (config.auth.devMode && !isLoopbackHost(config.http.host)) {
    throw new ConfigError([
      `AGENTDESK_DEV_MODE (${configEnvironment.AGENTDESK_DEV_MODE}): dev mode serves requests without a key, so HOST must be a loopback address (127.0.0.1, ::1 or localhost), not "${config.http.host}"`,
    ]);
  }
  const { idleTimeoutMs, absoluteTimeoutMs } = config.consoleSessions;
  if (idleTimeoutMs > absoluteTimeoutMs) {
    throw new ConfigError([
      `AGENTDESK_CONSOLE_SESSION_IDLE_MS (${configEnvironment.AGENTDESK_CONSOLE_SESSION_IDLE_MS}): ${idleTimeoutMs} is longer than AGENTDESK_CONSOLE_SESSION_MAX_MS (${absoluteTimeoutMs}); a sign-in never lasts longer than the maximum`,
    ]);
  }
}

function isSupportedDatabaseUrl(url: string): boolean {
  try {
    parseDatabaseUrl(url);
    return true;
  } catch {
    return false;
  }
}

/** Where the database is, without credentials: `sqlite:<file>` or `postgres://host:port/database`. */
export function describeDatabase(url: Secret): string {
  const target = parseDatabaseUrl(url.reveal());
  if (target.dialect === 'sqlite') return `sqlite:${target.filename}`;
  try {
    const parsed = new URL(target.connectionString);
    return `postgres://${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgres://[unparsable]';
  }
}

/** The configuration without secrets, for the startup log line. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  return {
    database: { location: describeDatabase(config.database.url), poolSize: config.database.poolSize },
    http: config.http,
    rateLimit: config.rateLimit,
    auth: { adminKey: config.auth.adminKey === undefined ? 'not set' : 'set', devMode: config.auth.devMode },
    logLevel: config.logLevel,
    securityHeaders: config.securityHeaders,
    models: {
      defaultModel: config.models.defaultModel,
      providers: Object.fromEntries(
        Object.entries(config.models.endpoints).map(([provider, endpoint]) => [
          provider,
          {
            apiKey: endpoint.apiKey === undefined ? 'not set' : 'set',
            baseUrl: endpoint.baseUrl ?? 'default',
          },
        ]),
      ),
      routes: config.models.routes.map((route) => `${route.pattern} → ${route.provider}`),
    },
    turns: config.turns,
    usage: config.usage,
    consoleSessions: config.consoleSessions,
    sandbox: describeSandboxSettings(config.sandbox),
    cluster: describeClusterSettings(config.cluster),
    qaRuns: config.qaRuns,
    sso:
      config.sso === undefined
        ? 'off'
        : {
            issuer: config.sso.issuer.href,
            clientId: config.sso.clientId,
            clientSecret: 'set',
            scopes: config.sso.scopes,
            allowedEmailDomains: config.sso.allowedEmailDomains,
            roleClaim: config.sso.roleMapping.claim,
            allowKeySignIn: config.sso.allowKeySignIn,
          },
  };
}
