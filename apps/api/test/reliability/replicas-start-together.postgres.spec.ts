import { afterEach, describe, expect, it } from 'vitest';
import { generateApiKey, parseApiKey } from '../../src/core/api-key-format';
import { createOwnPostgresDatabase, type OwnPostgresDatabase } from '../support/postgres-database-per-test';
import { startApiProcess, stopApiProcess, waitFor, type ApiProcess } from './support/api-process';
import { holdMigrationLock, type MigrationBarrier } from './support/migration-barrier';

const replicaCount = 3;
const rounds = 4;
/** Printed by `startApi` on stdout, first start only. */
const printedKeyPattern = /^\s+(adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43})$/gm;

/**
 * Three real API processes started at the same moment on a new PostgreSQL database, as an
 * orchestrator starts a deployment. To make them meet at every step, the test holds the migration
 * lock until all three wait for it: they then migrate one after the other and run the rest of the
 * start (the admin key, the users, turn recovery, Nest) within milliseconds of each other. Every
 * replica must start and answer; the one admin key works on all of them. (The sandbox is off: its
 * concurrent start — one build, the others finding the image current — is
 * `replicas-as-one.postgres.spec.ts`'s.)
 */
describe('three API processes started at the same moment on a new PostgreSQL database', () => {
  let postgres: OwnPostgresDatabase | undefined;
  let barrier: MigrationBarrier | undefined;
  let replicas: ApiProcess[] = [];

  afterEach(async () => {
    await barrier?.release();
    barrier = undefined;
    await Promise.all(replicas.map((replica) => stopApiProcess(replica, 'SIGTERM')));
    replicas = [];
    await postgres?.drop();
    postgres = undefined;
  });

  /** Starts the replicas lined up on the migration lock; fails listing every replica that exited. */
  async function startTogether(environment: Record<string, string>): Promise<ApiProcess[]> {
    postgres = await createOwnPostgresDatabase({ migrated: false });
    barrier = await holdMigrationLock(postgres.url);
    const starts = Array.from({ length: replicaCount }, () =>
      startApiProcess({
        DATABASE_URL: postgres!.url,
        AGENTDESK_SANDBOX_ENABLED: 'false',
        ...environment,
      }),
    );
    // A replica that exits before it waits would leave the barrier waiting: race it against the starts.
    const startsSettled = Promise.allSettled(starts);
    await Promise.race([barrier.waitForWaiters(replicaCount), startsSettled]);
    await barrier.release();
    const settled = await startsSettled;
    replicas = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(
      settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : [])),
    ).toEqual([]);
    return replicas;
  }

  const statusOf = async (replica: ApiProcess, path: string, key?: string): Promise<number> => {
    const response = await fetch(`${replica.url}${path}`, {
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    return response.status;
  };

  const storedKeys = () =>
    postgres!.database.db.selectFrom('api_keys').select(['id', 'role', 'revoked_at']).execute();

  for (let round = 1; round <= rounds; round++) {
    it(`round ${round} of ${rounds}: with one AGENTDESK_ADMIN_KEY, all three become ready and the key works on each`, async () => {
      const adminKey = generateApiKey();
      const started = await startTogether({ AGENTDESK_ADMIN_KEY: adminKey.key });
      for (const replica of started) {
        expect(await statusOf(replica, '/readyz')).toBe(200);
        expect(await statusOf(replica, '/v1/admin/api-keys', adminKey.key)).toBe(200);
        expect(replica.output()).toContain('admin key from AGENTDESK_ADMIN_KEY is active');
      }
      expect(await storedKeys()).toEqual([{ id: adminKey.keyId, role: 'admin', revoked_at: null }]);
    }, 300_000);
  }

  it('without AGENTDESK_ADMIN_KEY, exactly one of the three prints a first admin key, and it works on each', async () => {
    // Dev mode's banner is the last thing a start prints: once all three show it, each has decided.
    const started = await startTogether({ AGENTDESK_DEV_MODE: 'true' });
    for (const replica of started) {
      await waitFor(
        () => (replica.output().includes('DEV MODE: requests WITHOUT an API key') ? true : undefined),
        `${replica.url} to finish its start`,
      );
    }
    const printed = started.flatMap((replica) =>
      [...replica.output().matchAll(printedKeyPattern)].map((match) => match[1]!),
    );
    expect(printed).toHaveLength(1);
    const [key] = printed as [string];
    expect(await storedKeys()).toEqual([{ id: parseApiKey(key)?.keyId, role: 'admin', revoked_at: null }]);
    for (const replica of started) {
      expect(await statusOf(replica, '/readyz')).toBe(200);
      expect(await statusOf(replica, '/v1/admin/api-keys', key)).toBe(200);
    }
  }, 300_000);
});
