import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../core/api-key-format';
import { ConfigError, describeConfig, loadConfig } from './app-config';

function configError(environment: Record<string, string>): ConfigError {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has zero-setup defaults: SQLite under data/, loopback, no dev mode', () => {
    const config = loadConfig({});
    expect(config.database.url.reveal()).toBe('sqlite:data/agentdesk.db');
    expect(config.http).toEqual({ host: '127.0.0.1', port: 3000, bodyLimitBytes: 1024 * 1024 });
    expect(config.auth).toEqual({ adminKey: undefined, devMode: false });
    expect(config.rateLimit).toEqual({ max: 600, windowMs: 60_000, authFailuresMax: 30 });
    expect(config.logLevel).toBe('info');
    expect(config.usage).toEqual({ flushIntervalMs: 1000, batchSize: 500, maxBufferedEvents: 100_000 });
  });

  it('reads the usage meter knobs and refuses a batch SQLite could not bind', () => {
    const config = loadConfig({
      AGENTDESK_USAGE_FLUSH_INTERVAL_MS: '250',
      AGENTDESK_USAGE_BATCH_SIZE: '1000',
      AGENTDESK_USAGE_MAX_BUFFERED: '5000',
    });
    expect(config.usage).toEqual({ flushIntervalMs: 250, batchSize: 1000, maxBufferedEvents: 5000 });
    const error = configError({ AGENTDESK_USAGE_BATCH_SIZE: '1001', AGENTDESK_USAGE_FLUSH_INTERVAL_MS: '0' });
    expect(error.problems).toHaveLength(2);
    expect(error.message).toContain('AGENTDESK_USAGE_BATCH_SIZE');
    expect(error.message).toContain('AGENTDESK_USAGE_FLUSH_INTERVAL_MS');
  });

  it('reads the console sign-in timeouts: an hour idle and eight hours in all by default', () => {
    expect(loadConfig({}).consoleSessions).toEqual({
      idleTimeoutMs: 3_600_000,
      absoluteTimeoutMs: 28_800_000,
    });
    expect(
      loadConfig({
        AGENTDESK_CONSOLE_SESSION_IDLE_MS: '900000',
        AGENTDESK_CONSOLE_SESSION_MAX_MS: '3600000',
      }).consoleSessions,
    ).toEqual({ idleTimeoutMs: 900_000, absoluteTimeoutMs: 3_600_000 });
    expect(configError({ AGENTDESK_CONSOLE_SESSION_IDLE_MS: '1000' }).message).toContain(
      'AGENTDESK_CONSOLE_SESSION_IDLE_MS',
    );
    expect(
      configError({
        AGENTDESK_CONSOLE_SESSION_IDLE_MS: '7200000',
        AGENTDESK_CONSOLE_SESSION_MAX_MS: '3600000',
      }).message,
    ).toContain('longer than AGENTDESK_CONSOLE_SESSION_MAX_MS');
  });

  it('reads every variable', () => {
    const adminKey = generateApiKey().key;
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      DATABASE_POOL_SIZE: '4',
      HOST: '0.0.0.0',
      PORT: '8080',
      AGENTDESK_BODY_LIMIT_BYTES: '4096',
      AGENTDESK_RATE_LIMIT_MAX: '10',
      AGENTDESK_RATE_LIMIT_WINDOW_MS: '5000',
      AGENTDESK_AUTH_FAILURE_LIMIT: '3',
      AGENTDESK_ADMIN_KEY: adminKey,
      AGENTDESK_DEV_MODE: 'false',
      LOG_LEVEL: 'warn',
    });
    expect(config.database.poolSize).toBe(4);
    expect(config.http).toEqual({ host: '0.0.0.0', port: 8080, bodyLimitBytes: 4096 });
    expect(config.rateLimit).toEqual({ max: 10, windowMs: 5000, authFailuresMax: 3 });
    expect(config.auth.adminKey?.reveal()).toBe(adminKey);
    expect(config.logLevel).toBe('warn');
  });

  it('fails fast, listing every invalid variable at once', () => {
    const error = configError({
      PORT: 'eighty',
      AGENTDESK_DEV_MODE: 'yes',
      LOG_LEVEL: 'loud',
      AGENTDESK_BODY_LIMIT_BYTES: '10',
      DATABASE_URL: 'mysql://x',
    });
    expect(error.problems).toHaveLength(5);
    expect(error.message).toContain('PORT (port to listen on): must be a whole number');
    expect(error.message).toContain('AGENTDESK_DEV_MODE');
    expect(error.message).toContain('LOG_LEVEL');
    expect(error.message).toContain(
      'AGENTDESK_BODY_LIMIT_BYTES (largest request body in bytes): must be at least 1024',
    );
    expect(error.message).toContain('DATABASE_URL');
    expect(configError({ PORT: '70000' }).message).toContain('must be at most 65535');
  });

  it('never puts a secret into an error, a log line or a serialized config', () => {
    const malformed = 'adk_supersecret_value_that_is_not_a_key';
    const error = configError({ AGENTDESK_ADMIN_KEY: malformed, DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(error.message).toContain('AGENTDESK_ADMIN_KEY');
    expect(error.message).not.toContain('supersecret');
    expect(error.message).not.toContain('hunter2');

    const key = generateApiKey().key;
    const config = loadConfig({
      AGENTDESK_ADMIN_KEY: key,
      DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/agentdesk',
    });
    for (const rendered of [
      JSON.stringify(config),
      inspect(config, { depth: 10 }),
      String(config.auth.adminKey),
      JSON.stringify(describeConfig(config)),
    ]) {
      expect(rendered).not.toContain(key);
      expect(rendered).not.toContain('hunter2');
    }
    expect(describeConfig(config)).toMatchObject({
      database: { location: 'postgres://db.internal:5432/agentdesk' },
      auth: { adminKey: 'set' },
    });
  });

  it('checks the model settings at start, naming a route key variable that is not set', () => {
    const error = configError({
      OPENAI_BASE_URL: 'not a url',
      AGENTDESK_MODEL_ROUTES: JSON.stringify([
        { pattern: 'vllm-*', provider: 'openai', apiKeyEnv: 'VLLM_KEY' },
      ]),
    });
    expect(error.message).toContain('OPENAI_BASE_URL');
    expect(
      configError({
        AGENTDESK_MODEL_ROUTES: JSON.stringify([
          { pattern: 'vllm-*', provider: 'openai', apiKeyEnv: 'VLLM_KEY' },
        ]),
      }).message,
    ).toContain('reads its key from VLLM_KEY, which is not set');
    const config = loadConfig({
      VLLM_KEY: 'vllm-secret',
      AGENTDESK_MODEL_ROUTES: JSON.stringify([
        { pattern: 'vllm-*', provider: 'openai', apiKeyEnv: 'VLLM_KEY' },
      ]),
    });
    expect(config.models.routes[0]?.apiKey?.reveal()).toBe('vllm-secret');
    expect(JSON.stringify(describeConfig(config))).not.toContain('vllm-secret');
  });

  it('allows dev mode only on a loopback address', () => {
    expect(loadConfig({ AGENTDESK_DEV_MODE: 'true' }).auth.devMode).toBe(true);
    expect(loadConfig({ AGENTDESK_DEV_MODE: '1', HOST: 'localhost' }).auth.devMode).toBe(true);
    expect(loadConfig({ AGENTDESK_DEV_MODE: 'true', HOST: '::1' }).auth.devMode).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.10', '::', 'example.com']) {
      expect(configError({ AGENTDESK_DEV_MODE: 'true', HOST: host }).message).toContain(
        'must be a loopback address',
      );
    }
  });
});
