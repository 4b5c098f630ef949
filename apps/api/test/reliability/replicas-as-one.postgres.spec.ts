import { EngineClient } from '@agentdesk/sandbox';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { createRepositories, type Repositories, type SandboxBuild } from '@agentdesk/storage';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SessionJson } from '@agentdesk/api-contract';
import { createLocalUser, issueUserKey, type IssuedKey } from '../support/fixtures';
import { createOwnPostgresDatabase, type OwnPostgresDatabase } from '../support/postgres-database-per-test';
import { emulatorEnvironment } from '../support/provider-emulator';
import { sandboxTestEnvironment } from '../support/sandbox-environment';
import { startApiProcess, stopApiProcess, waitFor, type ApiProcess } from './support/api-process';
import { deleteRedisKeys, testRedisUrl } from './support/redis';

/** The shared per-key limit; small so the test reaches it quickly. */
const sharedLimit = 30;
/** Long on purpose: a key stays cached for the whole test, so only the broadcast can make a replica refuse it. */
const keyCacheTtlMs = 30_000;

type BuildRow = Pick<SandboxBuild, 'id' | 'trigger' | 'status'>;

/**
 * Three real API processes on one PostgreSQL database and one Redis (a key prefix of this run
 * alone) behave as one API: a rate limit of N is N across all three, a key revoked on one is
 * refused by all through the broadcast, a session takes one turn at a time whichever replicas the turns
 * reach, and concurrent image builds on three replicas build once.
 */
describe('three API replicas on one PostgreSQL and one Redis', () => {
  const redisKeyPrefix = `agentdesk-test-${randomBytes(6).toString('hex')}`;
  let postgres: OwnPostgresDatabase;
  let emulator: ProviderEmulator;
  let repositories: Repositories;
  let replicas: ApiProcess[] = [];
  let admin: IssuedKey;
  const sandbox = sandboxTestEnvironment('replicas', 'postgres');

  beforeAll(async () => {
    postgres = await createOwnPostgresDatabase();
    emulator = await startProviderEmulator();
    repositories = createRepositories(postgres.database);
    admin = await issueUserKey(repositories, await createLocalUser(repositories, 'operator'), 'admin');
    const environment = {
      ...emulatorEnvironment(emulator),
      ...sandbox,
      DATABASE_URL: postgres.url,
      AGENTDESK_REDIS_URL: testRedisUrl,
      AGENTDESK_REDIS_KEY_PREFIX: redisKeyPrefix,
      // Exact shared counts: a hit pushed past the 150 ms default by a loaded machine would be
      // counted per process instead (the deadline's own behaviour is shared-state-redis.spec.ts's).
      AGENTDESK_REDIS_COMMAND_TIMEOUT_MS: '2000',
      AGENTDESK_KEY_CACHE_TTL_MS: String(keyCacheTtlMs),
      AGENTDESK_RATE_LIMIT_MAX: String(sharedLimit),
      // Polling a revoked key counts failed credentials: keep that limit out of the way.
      AGENTDESK_AUTH_FAILURE_LIMIT: '100000',
    };
    replicas = await Promise.all([0, 1, 2].map(() => startApiProcess(environment)));
    // Three processes compiling TypeScript at once take long on a loaded 2-core machine.
  }, 300_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => stopApiProcess(replica, 'SIGTERM')));
    replicas = [];
    await emulator?.close();
    await postgres?.drop();
    await deleteRedisKeys(redisKeyPrefix);
  });

  const call = (replica: ApiProcess, method: string, path: string, key: string, body?: unknown) =>
    fetch(`${replica.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const statusOf = async (replica: ApiProcess, path: string, key: string): Promise<number> => {
    const response = await call(replica, 'GET', path, key);
    await response.arrayBuffer();
    return response.status;
  };

  it('says at start that rate limits are shared through Redis', () => {
    for (const replica of replicas) {
      expect(replica.output()).toContain(
        `rate limits: shared through Redis at redis://127.0.0.1:6379/0 (keys ${redisKeyPrefix}:rate:*)`,
      );
    }
  });

  it('counts one rate limit of N across the three: request N+1 is refused whichever replica gets it', async () => {
    const { key } = await issueUserKey(repositories, await createLocalUser(repositories, 'limited'));
    const statuses: number[] = [];
    for (let index = 0; index < sharedLimit; index++) {
      statuses.push(await statusOf(replicas[index % 3]!, '/v1/sessions', key));
    }
    expect(statuses).toEqual(Array(sharedLimit).fill(200));
    for (const replica of replicas) {
      const refused = await call(replica, 'GET', '/v1/sessions', key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await refused.arrayBuffer();
    }
    // Another key has its own budget on every replica.
    const other = await issueUserKey(repositories, await createLocalUser(repositories, 'unlimited'));
    for (const replica of replicas) expect(await statusOf(replica, '/v1/sessions', other.key)).toBe(200);
  });

  it('a key revoked on one replica is refused by all three through the broadcast, though each had it cached', async () => {
    // GET /v1/sessions trusts the authentication alone (/v1/me re-reads the key row).
    const probe = '/v1/sessions';
    const holder = await createLocalUser(repositories, 'revoked-holder');
    // The cache is real: a revocation written behind the API's back (no broadcast) is not seen
    // until the entry expires. This key is cached first, before the revoked one below, so while
    // it is still let in, the revoked key's entries (younger) cannot have expired either.
    const sneaky = await issueUserKey(repositories, holder);
    for (const replica of replicas) expect(await statusOf(replica, probe, sneaky.key)).toBe(200);
    const revokedKey = await issueUserKey(repositories, holder);
    const bystander = await issueUserKey(repositories, holder);
    for (const replica of replicas) {
      expect(await statusOf(replica, probe, revokedKey.key)).toBe(200);
      expect(await statusOf(replica, probe, bystander.key)).toBe(200);
    }
    await repositories.apiKeys.revoke(sneaky.stored.id);
    for (const replica of replicas) expect(await statusOf(replica, probe, sneaky.key)).toBe(200);

    const [first, ...others] = replicas as [ApiProcess, ApiProcess, ApiProcess];
    const revoked = await call(first, 'DELETE', `/v1/admin/api-keys/${revokedKey.stored.id}`, admin.key);
    expect(revoked.status).toBe(200);
    await revoked.arrayBuffer();
    // The replica that revoked refuses the very next request.
    expect(await statusOf(first, probe, revokedKey.key)).toBe(401);
    await Promise.all(
      others.map((replica) =>
        waitFor(
          async () => ((await statusOf(replica, probe, revokedKey.key)) === 401 ? true : undefined),
          `replica ${replica.url} to refuse the revoked key`,
          { state: async () => ({ revokedKey: await statusOf(replica, probe, revokedKey.key) }) },
        ),
      ),
    );
    // Refused because the broadcast reached them, not because a cache entry ran out: the key
    // cached before it, revoked without a broadcast, is still let in everywhere.
    for (const replica of replicas) expect(await statusOf(replica, probe, sneaky.key)).toBe(200);
    // Only that key: the holder's other key still works everywhere.
    for (const replica of replicas) expect(await statusOf(replica, probe, bystander.key)).toBe(200);
  });

  it('runs one turn at a time per session: concurrent turns sent to three replicas → one answers, two get 409', async () => {
    const { key } = await issueUserKey(repositories, await createLocalUser(repositories, 'chatty'));
    const created = await call(replicas[0]!, 'POST', '/v1/sessions', key, {
      label: 'busy',
      model: 'gpt-test',
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as SessionJson;
    emulator.reset();
    // A slow answer (1.5 s), so the three turns overlap on any machine.
    emulator.script({ kind: 'text', text: 'one answer at a time', delayMs: 1_500, times: 3 });
    const responses = await Promise.all(
      replicas.map(async (replica, index) => {
        const response = await call(replica, 'POST', `/v1/sessions/${session.id}/messages`, key, {
          content: `question ${index}`,
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      }),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    expect(responses.find((response) => response.status === 200)?.body).toMatchObject({
      status: 'complete',
      text: 'one answer at a time',
    });
    expect(emulator.requests).toHaveLength(1);
    const transcript = await call(replicas[2]!, 'GET', `/v1/sessions/${session.id}/messages`, key);
    const messages = ((await transcript.json()) as { items: Array<{ role: string; status: string }> }).items;
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
  });

  it('builds the sandbox image once for concurrent rebuild requests sent to different replicas', async () => {
    // Read from the database: polling through the API would spend the admin key's small rate limit.
    const builds = async (): Promise<BuildRow[]> =>
      (await repositories.sandboxBuilds.list({ limit: 100 })).items;
    // The three starts ensured the image concurrently already: one built it, two found it current.
    const startUps = await waitFor(
      async () => {
        const rows = (await builds()).filter((build) => build.trigger === 'start-up');
        return rows.length === 3 && rows.every((build) => build.status !== 'running') ? rows : undefined;
      },
      'the three start-up builds to end',
      2_400,
    );
    expect(startUps.map((build) => build.status).sort()).toEqual(['built', 'current', 'current']);

    // Untag the image (its pin keeps the layers), so every replica sees it missing at once.
    await new EngineClient({ dockerHost: inject('dockerHost') }).removeImage(
      sandbox['AGENTDESK_SANDBOX_IMAGE']!,
      true,
    );
    const started = await Promise.all(
      replicas.map(async (replica) => {
        const response = await call(replica, 'POST', '/v1/admin/sandbox/image/rebuild', admin.key, {
          force: false,
        });
        expect(response.status).toBe(202);
        return ((await response.json()) as { buildId: string }).buildId;
      }),
    );
    const finished = await waitFor(
      async () => {
        const rows = (await builds()).filter((build) => started.includes(build.id));
        return rows.length === 3 && rows.every((build) => build.status !== 'running') ? rows : undefined;
      },
      'the three rebuilds to end',
      2_400,
    );
    expect(finished.map((build) => build.status).sort()).toEqual(['built', 'current', 'current']);
  });
});
