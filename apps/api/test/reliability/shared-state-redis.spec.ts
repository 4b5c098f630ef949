import type { Redis } from 'ioredis';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdminKeyCommand } from '../../src/admin-key/admin-key-command';
import { Secret } from '../../src/config/secret';
import { KeyRevocations } from '../../src/cluster/key-revocations';
import { MemoryRateCounter } from '../../src/cluster/memory-rate-counter';
import { RedisAvailability, RedisSkippedError } from '../../src/cluster/redis-availability';
import { RedisDeadlineError } from '../../src/cluster/redis-deadline';
import { RedisRateCounter } from '../../src/cluster/redis-rate-counter';
import { closeRedis, connectRedis, RedisUnavailableError } from '../../src/cluster/redis-connection';
import { closeSharedState, openSharedState, type SharedState } from '../../src/cluster/shared-state';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { LogCapture } from '../support/log-capture';
import { startTestApi, type TestApi } from '../support/test-api';
import { startApiProcess, waitFor } from './support/api-process';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis';
import { deleteRedisKeys, testRedisUrl } from './support/redis';

const silent = pino({ level: 'silent' });
const uniquePrefix = () => `agentdesk-test-${randomBytes(6).toString('hex')}`;
const clusterSettings = (url: string, prefix: string) => ({
  redisUrl: new Secret(url),
  redisKeyPrefix: prefix,
  keyCacheTtlMs: 5_000,
  keyCacheSize: 100,
  redisCommandTimeoutMs: 150,
});

/** A port nothing listens on (the private Redis, stopped). */
async function closedRedisUrl(): Promise<string> {
  const redis = await startPrivateRedis();
  await redis.stop();
  return redis.url;
}

describe('shared state through Redis', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
  const track = <T>(value: T, cleanup: (value: T) => Promise<void>): T => {
    cleanups.push(() => cleanup(value));
    return value;
  };
  const privateRedis = async (): Promise<PrivateRedis> =>
    track(await startPrivateRedis(), (redis) => redis.stop());
  const connection = async (url: string): Promise<Redis> =>
    track(await connectRedis(new Secret(url), 'test', silent), closeRedis);
  const sharedState = async (url: string, prefix: string): Promise<SharedState> =>
    track(await openSharedState(clusterSettings(url, prefix), silent), closeSharedState);
  /** The deadline and fallback over a connection (not probing until started). */
  const availabilityOf = (redis: Redis, logger = silent): RedisAvailability =>
    track(new RedisAvailability(redis, 150, 'test', logger, 50), (availability) =>
      Promise.resolve(availability.stop()),
    );

  it('counts atomically across connections: 300 concurrent hits from three "replicas" get the counts 1…300 once each', async () => {
    const prefix = uniquePrefix();
    cleanups.push(() => deleteRedisKeys(prefix));
    const counters = await Promise.all(
      [0, 1, 2].map(
        async () =>
          new RedisRateCounter(
            availabilityOf(await connection(testRedisUrl)),
            prefix,
            'test',
            new MemoryRateCounter(),
            silent,
          ),
      ),
    );
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, index) => counters[index % 3]!.hit('api-key:one', 60_000)),
    );
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 300 }, (_, index) => index + 1),
    );
    for (const result of results) {
      expect(result.resetInMs).toBeGreaterThan(0);
      expect(result.resetInMs).toBeLessThanOrEqual(60_000);
    }
    // Another bucket, and the same bucket under another deployment's prefix, start from 1.
    expect((await counters[0]!.hit('api-key:two', 60_000)).count).toBe(1);
    const otherPrefix = uniquePrefix();
    cleanups.push(() => deleteRedisKeys(otherPrefix));
    const other = new RedisRateCounter(
      availabilityOf(await connection(testRedisUrl)),
      otherPrefix,
      'test',
      new MemoryRateCounter(),
      silent,
    );
    expect((await other.hit('api-key:one', 60_000)).count).toBe(1);
  });

  it('Redis lost while running: hits are counted in this process (no error, no wait) and go back to Redis once it returns', async () => {
    const redis = await privateRedis();
    const logs = new LogCapture();
    const logger = pino({ level: 'info' }, logs);
    const commands = track(await connectRedis(new Secret(redis.url), 'test', logger), closeRedis);
    const availability = availabilityOf(commands, logger);
    availability.start();
    const counter = new RedisRateCounter(availability, 'outage', 'test', new MemoryRateCounter(), logger);
    expect((await counter.hit('bucket', 60_000)).count).toBe(1);
    expect((await counter.hit('bucket', 60_000)).count).toBe(2);

    await redis.kill();
    await waitFor(() => (commands.status === 'ready' ? undefined : true), 'the client to notice');
    // The fallback counts on its own (its own window, from 1).
    expect((await counter.hit('bucket', 60_000)).count).toBe(1);
    expect((await counter.hit('bucket', 60_000)).count).toBe(2);
    expect(logs.text()).toContain('rate limits: Redis is unavailable; counting in this process only');
    expect(logs.text()).toContain('lost the connection to Redis; reconnecting');

    // Back (empty, as a restarted Redis without persistence is): counts come from Redis again.
    await redis.restart();
    await waitFor(() => (commands.status === 'ready' ? true : undefined), 'the client to reconnect');
    await waitFor(() => (availability.isAvailable ? true : undefined), 'Redis to answer a probe');
    expect((await counter.hit('bucket', 60_000)).count).toBe(1);
    expect(await commands.get('outage:rate:bucket')).toBe('1');
    expect(logs.text()).toContain('reconnected to Redis');
  });

  it('Redis frozen (SIGSTOP): one call waits out the deadline, later ones are not even sent; a probe answering in time brings it back', async () => {
    const redis = await privateRedis();
    const logs = new LogCapture();
    const logger = pino({ level: 'info' }, logs);
    const commands = await connection(redis.url);
    // Not probing yet: what follows is the calls' own doing.
    const availability = availabilityOf(commands, logger);
    const changes: boolean[] = [];
    availability.onChange((available) => changes.push(available));
    const counter = new RedisRateCounter(availability, 'frozen', 'test', new MemoryRateCounter(), logger);
    expect((await counter.hit('bucket', 60_000)).count).toBe(1);

    redis.freeze();
    try {
      // The connection looks fine: only the deadline can tell.
      expect(commands.status).toBe('ready');
      await expect(availability.call((client) => client.ping())).rejects.toBeInstanceOf(RedisDeadlineError);
      expect(availability.isAvailable).toBe(false);
      const command = vi.fn((client: Redis) => client.ping());
      await expect(availability.call(command)).rejects.toBeInstanceOf(RedisSkippedError);
      expect(command).not.toHaveBeenCalled();
      // The counter falls back to this process's own counts (from 1) without asking Redis.
      expect((await counter.hit('bucket', 60_000)).count).toBe(1);
      expect((await counter.hit('bucket', 60_000)).count).toBe(2);
      expect(changes).toEqual([false]);
      expect(logs.text()).toContain('Redis is unavailable: rate limits count per process');
    } finally {
      redis.thaw();
    }

    availability.start();
    await waitFor(() => (availability.isAvailable ? true : undefined), 'a probe to answer in time');
    expect(changes).toEqual([false, true]);
    expect(logs.text()).toContain('Redis answers in time again');
    expect((await counter.hit('after-freeze', 60_000)).count).toBe(1);
    expect(await commands.get('frozen:rate:after-freeze')).toBe('1');
  });

  it('a reply that arrived while this process was busy past the deadline is not taken for a silent Redis', async () => {
    const availability = availabilityOf(await connection(testRedisUrl));
    const answered = availability.call((client) => client.ping());
    // Blocks the event loop three deadlines long, with the PING sent and its deadline running:
    // Redis answers meanwhile, and the deadline's timer is due before the reply is read.
    const until = performance.now() + 3 * availability.deadlineMs;
    while (performance.now() < until);
    expect(await answered).toBe('PONG');
    expect(availability.isAvailable).toBe(true);
  });

  it('a frozen Redis makes the process forget every cached key and stop trusting its cache until Redis answers again', async () => {
    const redis = await privateRedis();
    const state = await sharedState(redis.url, 'frozen-subscription');
    const revocations = new KeyRevocations(state, silent);
    await revocations.start();
    const received: Array<string | undefined> = [];
    revocations.onRevoked((apiKeyId) => received.push(apiKeyId));
    expect(revocations.isLive).toBe(true);

    redis.freeze();
    try {
      // Nobody calls Redis here: the periodic probe notices the silence by itself.
      await waitFor(() => (revocations.isLive ? undefined : true), 'the silence to be noticed');
      expect(state.kind === 'redis' && state.subscriber.status).toBe('ready');
      expect(received).toEqual([undefined]);
      // Announcing meanwhile neither waits for Redis nor fails: this process forgets the key.
      await revocations.announce('key-during-freeze');
      expect(received).toEqual([undefined, 'key-during-freeze']);
    } finally {
      redis.thaw();
    }
    await waitFor(() => (revocations.isLive ? true : undefined), 'Redis to answer again');
    // Forgotten again on the way back.
    expect(received.slice(0, 3)).toEqual([undefined, 'key-during-freeze', undefined]);
  });

  it('broadcasts revocations to every process of the deployment (and to no other deployment)', async () => {
    const prefix = uniquePrefix();
    const heard = (revocations: KeyRevocations): Array<string | undefined> => {
      const received: Array<string | undefined> = [];
      revocations.onRevoked((apiKeyId) => received.push(apiKeyId));
      return received;
    };
    const [revoker, replicaB, foreign] = await Promise.all([
      sharedState(testRedisUrl, prefix),
      sharedState(testRedisUrl, prefix),
      sharedState(testRedisUrl, uniquePrefix()),
    ]);
    const processes = [revoker, replicaB, foreign].map((state) => new KeyRevocations(state, silent));
    await Promise.all(processes.map((process) => process.start()));
    const [onRevoker, onReplicaB, onForeign] = processes.map(heard);
    expect(processes.every((process) => process.isLive)).toBe(true);

    await processes[0]!.announce('key-1');
    // The announcing process forgets at once, before `announce` even publishes.
    expect(onRevoker![0]).toBe('key-1');
    await waitFor(() => (onReplicaB!.includes('key-1') ? true : undefined), 'replica B to hear it');
    // Sent once more to itself through Redis (harmless: forgetting twice).
    await waitFor(() => (onRevoker!.length === 2 ? true : undefined), 'the echo');
    await processes[1]!.announce('key-2');
    await waitFor(() => (onRevoker!.includes('key-2') ? true : undefined), 'the revoker to hear key-2');
    expect(onForeign).toEqual([]);
  });

  it('a lost subscription makes the process forget every cached key and stop trusting its cache until it is back', async () => {
    const redis = await privateRedis();
    const state = await sharedState(redis.url, 'subscription');
    const revocations = new KeyRevocations(state, silent);
    await revocations.start();
    const received: Array<string | undefined> = [];
    revocations.onRevoked((apiKeyId) => received.push(apiKeyId));
    expect(revocations.isLive).toBe(true);

    await redis.kill();
    await waitFor(() => (revocations.isLive ? undefined : true), 'the subscription to be lost');
    expect(received).toContain(undefined);
    received.length = 0;

    await redis.restart();
    await waitFor(() => (revocations.isLive ? true : undefined), 'the subscription to return');
    // Forgotten again on the way back: messages sent during the outage are lost.
    expect(received).toContain(undefined);
    const publisher = await connection(redis.url);
    await publisher.publish('subscription:api-key-revocations', 'key-after-outage');
    await waitFor(
      () => (received.includes('key-after-outage') ? true : undefined),
      'a message after the outage',
    );
  });

  it('refuses to start when AGENTDESK_REDIS_URL names a Redis that does not answer, saying what to do and never the password', async () => {
    const url = (await closedRedisUrl()).replace('redis://', 'redis://default:hunter2@');
    const failure = await connectRedis(new Secret(url), 'test', silent).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    const message = (failure as Error).message;
    expect(message).toMatch(
      /^AGENTDESK_REDIS_URL: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(ECONNREFUSED/,
    );
    expect(message).toContain('unset AGENTDESK_REDIS_URL');
    expect(message).not.toContain('hunter2');

    await expect(startTestApi('sqlite', { AGENTDESK_REDIS_URL: url })).rejects.toBeInstanceOf(
      RedisUnavailableError,
    );
    // The real process ends with that one line and exit code 1 (environment not ready).
    const started = await startApiProcess({
      DATABASE_URL: 'sqlite::memory:',
      AGENTDESK_REDIS_URL: url,
    }).catch((error: unknown) => error);
    expect(String(started)).toContain('the API exited with 1 before listening');
    expect(String(started)).toContain('AGENTDESK_REDIS_URL: cannot reach Redis at redis://127.0.0.1:');
    expect(String(started)).not.toContain('hunter2');
    // A real process start (TypeScript compiled at start) is slow on a loaded machine.
  }, 300_000);

  it("npm run admin-key -- --revoke-others tells running replicas through the deployment's channel", async () => {
    const prefix = uniquePrefix();
    const folder = await mkdtemp(join(tmpdir(), 'agentdesk-admin-key-broadcast-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const environment = {
      DATABASE_URL: `sqlite:${join(folder, 'agentdesk.db')}`,
      AGENTDESK_REDIS_URL: testRedisUrl,
      AGENTDESK_REDIS_KEY_PREFIX: prefix,
    };
    const notes: string[] = [];
    const output = { key: () => undefined, note: (line: string) => notes.push(line) };
    expect(await runAdminKeyCommand([], environment, output)).toBe(0);
    expect(await runAdminKeyCommand([], environment, output)).toBe(0);

    const replica = new KeyRevocations(await sharedState(testRedisUrl, prefix), silent);
    await replica.start();
    const heard: Array<string | undefined> = [];
    replica.onRevoked((apiKeyId) => heard.push(apiKeyId));
    expect(await runAdminKeyCommand(['--revoke-others'], environment, output)).toBe(0);
    expect(notes.join('\n')).toContain('Revoked 2 other admin key(s)');
    expect(notes.join('\n')).toContain('Running API replicas were told through Redis');
    await waitFor(() => (heard.length === 2 ? true : undefined), 'both revocations');
    expect(heard.every((apiKeyId) => typeof apiKeyId === 'string' && apiKeyId.length > 0)).toBe(true);
  });

  describe('an API whose Redis goes away while it runs', () => {
    let test: TestApi | undefined;
    afterEach(async () => {
      await test?.close();
      test = undefined;
    });

    it('keeps answering (never 500), limits per process meanwhile, and still refuses a key revoked here at once', async () => {
      const redis = await privateRedis();
      test = await startTestApi('sqlite', {
        AGENTDESK_REDIS_URL: redis.url,
        AGENTDESK_RATE_LIMIT_MAX: '5',
      });
      expect(test.logs.text()).toContain(`rate limits: shared through Redis at ${redis.url}`);
      const repositories = test.api.repositories;
      const holder = await createLocalUser(repositories, 'holder');
      const limited = await issueUserKey(repositories, holder);
      const doomed = await issueUserKey(repositories, holder);
      const admin = await issueUserKey(
        repositories,
        await createLocalUser(repositories, 'admin-user'),
        'admin',
      );
      const get = (key: string) => test!.request({ method: 'GET', url: '/v1/sessions', key });
      expect((await get(limited.key)).statusCode).toBe(200);
      expect((await get(doomed.key)).statusCode).toBe(200);

      await redis.kill();
      // The per-process fallback counts from its own zero: 5 more pass, the 6th is refused.
      const statuses: number[] = [];
      for (let index = 0; index < 6; index++) statuses.push((await get(limited.key)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

      const revoked = await test.request({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${doomed.stored.id}`,
        key: admin.key,
      });
      expect(revoked.statusCode).toBe(200);
      expect((await get(doomed.key)).statusCode).toBe(401);
      expect(test.logs.text()).toContain('could not broadcast a key revocation through Redis');
    });

    it('Redis frozen (SIGSTOP): requests go on without waiting for it, /readyz and /metrics say limits are per process, shared again once it answers', async () => {
      const redis = await privateRedis();
      test = await startTestApi('sqlite', {
        AGENTDESK_REDIS_URL: redis.url,
        AGENTDESK_RATE_LIMIT_MAX: '5',
      });
      const repositories = test.api.repositories;
      const holder = await createLocalUser(repositories, 'holder');
      const limited = await issueUserKey(repositories, holder);
      const doomed = await issueUserKey(repositories, holder);
      const admin = await issueUserKey(
        repositories,
        await createLocalUser(repositories, 'admin-user'),
        'admin',
      );
      // Generous: only a request that waits for Redis to wake up (16 s in the report) would miss it.
      const answered = <T>(request: Promise<T>, what: string): Promise<T> =>
        Promise.race([
          request,
          new Promise<never>((_resolve, reject) =>
            setTimeout(() => reject(new Error(`${what} did not answer while Redis was frozen`)), 5_000),
          ),
        ]);
      const get = (key: string) =>
        answered(test!.request({ method: 'GET', url: '/v1/sessions', key }), 'GET /v1/sessions');
      const readiness = async () =>
        (await test!.request({ method: 'GET', url: '/readyz' })).json<{ rateLimits: unknown }>().rateLimits;
      const metrics = async () => (await test!.request({ method: 'GET', url: '/metrics' })).body;
      expect(await readiness()).toEqual({ scope: 'shared', redis: 'available' });
      expect(await metrics()).toMatch(/^agentdesk_rate_limits_per_process 0$/m);
      expect((await get(limited.key)).statusCode).toBe(200);
      expect((await get(doomed.key)).statusCode).toBe(200);

      redis.freeze();
      try {
        // Every request is answered while Redis is still stopped; the per-process fallback counts
        // from its own zero: 5 more pass, the 6th is refused.
        const statuses: number[] = [];
        for (let index = 0; index < 6; index++) statuses.push((await get(limited.key)).statusCode);
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
        expect(await readiness()).toEqual({ scope: 'per-process', redis: 'unavailable' });
        const scraped = await metrics();
        expect(scraped).toMatch(/^agentdesk_rate_limits_per_process 1$/m);
        expect(scraped).toMatch(/^agentdesk_redis_available 0$/m);

        // A revocation is answered too, and refused here at once.
        const revoked = await answered(
          test.request({ method: 'DELETE', url: `/v1/admin/api-keys/${doomed.stored.id}`, key: admin.key }),
          'DELETE /v1/admin/api-keys/:id',
        );
        expect(revoked.statusCode).toBe(200);
        expect((await get(doomed.key)).statusCode).toBe(401);
        expect(test.logs.text()).toContain('Redis is unavailable: rate limits count per process');
      } finally {
        redis.thaw();
      }

      await waitFor(
        async () => ((await readiness()) as { scope: string }).scope === 'shared' || undefined,
        'limits to be shared again',
      );
      expect(await metrics()).toMatch(/^agentdesk_redis_available 1$/m);
      expect(test.logs.text()).toContain('Redis answers in time again');
      expect((await get(doomed.key)).statusCode).toBe(401);
    });

    it('without AGENTDESK_REDIS_URL says at start that limits hold for this process only', async () => {
      test = await startTestApi('sqlite');
      expect(test.logs.text()).toContain('rate limits: this process only (no AGENTDESK_REDIS_URL)');
    });
  });
});
