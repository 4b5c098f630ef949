import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRepositories, type Repositories } from '@agentdesk/storage';
import type { TestDatabase } from '@agentdesk/storage/testing';
import { bootstrapAccess, issueFirstAdminKey } from '../../../src/auth/bootstrap-access';
import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { generateApiKey, hashApiKey, parseApiKey } from '../../../src/core/api-key-format';
import { testDatabaseFactories, type Engine } from '../../support/engines';
import { createLocalUser, issueUserKey } from '../../support/fixtures';
import { baseTestEnvironment } from '../../support/test-api';

const silent = pino({ level: 'silent' });
/** Processes starting at once, as an orchestrator starts a deployment's replicas. */
const replicas = 6;

/**
 * The access steps of a start (`bootstrapAccess` before listening, `issueFirstAdminKey` after), run
 * by several "replicas" at once on one new database: each converges instead of failing the one
 * that comes second, and what must stop a start still does, saying why.
 */
export function describeStartUpAccess(engine: Engine): void {
  describe(`start-up access steps run by several replicas at once (${engine})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await testDatabaseFactories[engine]();
    });
    afterEach(async () => {
      await database.cleanup();
    });

    // One set of repositories per replica over the same database (one pool: in-process stand-ins).
    const replicaRepositories = (): Repositories[] =>
      Array.from({ length: replicas }, () => createRepositories(database.database));
    const startWith = (key: string, repositories: Repositories = database.repositories) =>
      bootstrapAccess(repositories, loadConfig({ ...baseTestEnvironment, AGENTDESK_ADMIN_KEY: key }), silent);
    const refusal = async (key: string): Promise<string> => {
      const failure = await startWith(key).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConfigError);
      return (failure as ConfigError).problems.join('\n');
    };

    it('the same AGENTDESK_ADMIN_KEY ensured by every replica at once: all succeed, one key and one admin user stored', async () => {
      const { key, keyId } = generateApiKey();
      const results = await Promise.all(
        replicaRepositories().map((repositories) => startWith(key, repositories)),
      );
      expect(results.map((result) => result.adminKeySource)).toEqual(Array(replicas).fill('environment'));
      const keys = (await database.repositories.apiKeys.list({ includeRevoked: true }, { limit: 100 })).items;
      expect(keys.map((stored) => [stored.id, stored.role, stored.revokedAt])).toEqual([
        [keyId, 'admin', null],
      ]);
      expect((await database.repositories.apiKeys.findActiveBySecretHash(hashApiKey(key)))?.id).toBe(keyId);
      expect(await database.repositories.users.findByExternalId(null, 'admin')).toBeDefined();
      // And once more, as a restart does.
      expect((await startWith(key)).adminKeySource).toBe('environment');
    });

    it('a revoked key stops the start, saying it was revoked (never re-enabled by a restart)', async () => {
      const { key, keyId } = generateApiKey();
      await startWith(key);
      await database.repositories.apiKeys.revoke(keyId);
      expect(await refusal(key)).toMatch(
        /^AGENTDESK_ADMIN_KEY: this key was revoked on \d{4}-\d\d-\d\dT[\d:.]+Z; a restart never re-enables a revoked key, configure a new one$/,
      );
    });

    it('another key under the same key id stops the start, saying exactly that', async () => {
      const stored = generateApiKey();
      await startWith(stored.key);
      const impostor = generateApiKey(stored.keyId);
      expect(impostor.key).not.toBe(stored.key);
      expect(await refusal(impostor.key)).toBe(
        `AGENTDESK_ADMIN_KEY: its key id (${parseApiKey(stored.key)?.visiblePrefix}) belongs to a different key stored here; configure a new key`,
      );
    });

    it('a key of another role stops the start, naming the role', async () => {
      const viewer = await issueUserKey(
        database.repositories,
        await createLocalUser(database.repositories, 'qa'),
        'viewer',
      );
      expect(await refusal(viewer.key)).toBe(
        'AGENTDESK_ADMIN_KEY: this key exists but is a viewer key, not an admin key; configure a new key',
      );
    });

    it('without AGENTDESK_ADMIN_KEY, replicas issuing the first admin key at once create exactly one', async () => {
      const issued = await Promise.all(
        replicaRepositories().map((repositories) => issueFirstAdminKey(repositories, silent)),
      );
      const keys = issued.flatMap((key) => (key === undefined ? [] : [key.key]));
      expect(keys).toHaveLength(1);
      const stored = (await database.repositories.apiKeys.list({ includeRevoked: true }, { limit: 100 }))
        .items;
      expect(stored.map((key) => [key.id, key.role])).toEqual([[parseApiKey(keys[0]!)?.keyId, 'admin']]);
      expect(await issueFirstAdminKey(database.repositories, silent)).toBeUndefined();
    });
  });
}
