import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from '../config/app-config';
import { describeRedisUrl, readClusterSettings } from './cluster-settings';

describe('cluster settings', () => {
  it('defaults to this process only, with a key cache of at most 1 s', () => {
    expect(readClusterSettings({}).settings).toEqual({
      redisUrl: undefined,
      redisKeyPrefix: 'agentdesk',
      keyCacheTtlMs: 1_000,
      keyCacheSize: 10_000,
      redisCommandTimeoutMs: 150,
    });
  });

  it('gives Redis calls a short deadline, configurable within 10 ms … 5 s', () => {
    expect(
      readClusterSettings({ AGENTDESK_REDIS_COMMAND_TIMEOUT_MS: '400' }).settings?.redisCommandTimeoutMs,
    ).toBe(400);
    for (const value of ['5', '5001', '0.5']) {
      expect(readClusterSettings({ AGENTDESK_REDIS_COMMAND_TIMEOUT_MS: value }).problems).toEqual([
        expect.stringMatching(/^AGENTDESK_REDIS_COMMAND_TIMEOUT_MS \(milliseconds a request waits for Redis/),
      ]);
    }
  });

  it('keeps verified keys 5 s by default with Redis (revocations are broadcast), and caps the TTL at 1 s without it', () => {
    const withRedis = readClusterSettings({ AGENTDESK_REDIS_URL: 'redis://127.0.0.1:6379' }).settings;
    expect(withRedis?.keyCacheTtlMs).toBe(5_000);
    expect(withRedis?.redisUrl?.reveal()).toBe('redis://127.0.0.1:6379');
    expect(readClusterSettings({ AGENTDESK_KEY_CACHE_TTL_MS: '30000' }).settings?.keyCacheTtlMs).toBe(1_000);
    expect(
      readClusterSettings({ AGENTDESK_REDIS_URL: 'rediss://cache:6380/2', AGENTDESK_KEY_CACHE_TTL_MS: '0' })
        .settings?.keyCacheTtlMs,
    ).toBe(0);
  });

  it('refuses bad values, naming the variable and never echoing the URL (it may hold a password)', () => {
    const { problems } = readClusterSettings({
      AGENTDESK_REDIS_URL: 'http://user:hunter2@cache:6379',
      AGENTDESK_REDIS_KEY_PREFIX: 'has spaces',
      AGENTDESK_KEY_CACHE_TTL_MS: '-1',
      AGENTDESK_KEY_CACHE_SIZE: '0',
      AGENTDESK_REDIS_COMMAND_TIMEOUT_MS: 'soon',
    });
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'AGENTDESK_REDIS_URL',
      'AGENTDESK_REDIS_KEY_PREFIX',
      'AGENTDESK_KEY_CACHE_TTL_MS',
      'AGENTDESK_KEY_CACHE_SIZE',
      'AGENTDESK_REDIS_COMMAND_TIMEOUT_MS',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(() => loadConfig({ AGENTDESK_REDIS_URL: 'localhost:6379' })).toThrow(ConfigError);
  });

  it('logs where Redis is without its password', () => {
    const config = loadConfig({ AGENTDESK_REDIS_URL: 'redis://default:hunter2@cache.internal:6379/3' });
    const described = JSON.stringify(describeConfig(config));
    expect(described).toContain('redis://cache.internal:6379/3');
    expect(described).not.toContain('hunter2');
    expect(inspect(config.cluster)).not.toContain('hunter2');
    expect(describeRedisUrl(config.cluster.redisUrl!)).toBe('redis://cache.internal:6379/3');
  });
});
