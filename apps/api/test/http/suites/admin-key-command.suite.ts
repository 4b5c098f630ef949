import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { testPostgresUrl } from '@agentdesk/storage/testing';
import { runAdminKeyCommand } from '../../../src/admin-key/admin-key-command';
import { loadConfig } from '../../../src/config/app-config';
import { createApp } from '../../../src/create-app';
import type { Engine } from '../../support/engines';
import { LogCapture } from '../../support/log-capture';
import { baseTestEnvironment } from '../../support/test-api';

/** A database URL of its own (the command opens the database itself), and how to remove it. */
async function freshDatabaseUrl(engine: Engine): Promise<{ url: string; remove: () => Promise<void> }> {
  if (engine === 'sqlite') {
    const folder = await mkdtemp(join(tmpdir(), 'agentdesk-admin-key-'));
    return {
      url: `sqlite:${join(folder, 'agentdesk.db')}`,
      remove: () => rm(folder, { recursive: true, force: true }),
    };
  }
  const name = `agentdesk_admin_key_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: testPostgresUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), remove: () => admin(`drop database if exists ${name} with (force)`) };
}

async function run(argv: string[], environment: Record<string, string>) {
  const keys: string[] = [];
  const notes: string[] = [];
  const code = await runAdminKeyCommand(argv, environment, {
    key: (line) => keys.push(line),
    note: (line) => notes.push(line),
  });
  return { code, keys, notes: notes.join('\n') };
}

export function describeAdminKeyCommand(engine: Engine): void {
  describe(`npm run admin-key (${engine})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      while (cleanups.length > 0) await cleanups.pop()?.();
    });

    it('issues working admin keys into an empty database, so the first start issues none; --revoke-others keeps only the new one', async () => {
      const database = await freshDatabaseUrl(engine);
      cleanups.push(database.remove);
      const environment = { ...baseTestEnvironment, DATABASE_URL: database.url };

      const first = await run([], environment);
      expect(first.code, first.notes).toBe(0);
      expect(first.keys).toHaveLength(1);
      expect(first.keys[0]).toMatch(/^adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
      expect(first.notes).not.toContain(first.keys[0]);
      const second = await run([], environment);
      const rotated = await run(['--revoke-others'], environment);
      expect(rotated.notes).toMatch(/Revoked 2 other admin key\(s\)/);

      const api = await createApp(loadConfig(environment), { logDestination: new LogCapture() });
      cleanups.push(() => api.close());
      expect(api.bootstrap.adminKeySource).toBe('existing');
      const whoIs = async (key: string | undefined) =>
        api.app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key ?? '' } });
      const current = await whoIs(rotated.keys[0]);
      expect(current.statusCode).toBe(200);
      expect(current.json()).toMatchObject({
        kind: 'user',
        role: 'admin',
        user: { externalId: 'admin' },
        apiKey: { label: 'Admin key issued from the host (npm run admin-key)' },
      });
      for (const revoked of [first.keys[0], second.keys[0]])
        expect((await whoIs(revoked)).statusCode).toBe(401);

      // Made and revoked from the host, not through the API: in the audit log all the same.
      const records = (await api.repositories.audit.list({}, { limit: 20 })).items.reverse();
      const currentKeyId = current.json<{ apiKey: { id: string } }>().apiKey.id;
      expect(records.map((record) => [record.action, record.target?.id === currentKeyId])).toEqual([
        ['host.admin-key.issue', false],
        ['host.admin-key.issue', false],
        ['host.admin-key.issue', true],
        ['host.admin-key.revoke', false],
        ['host.admin-key.revoke', false],
      ]);
      for (const record of records) {
        expect(record).toMatchObject({
          actorPrincipalId: 'host',
          actorKind: 'host',
          actorApiKeyId: null,
          wayIn: 'host-command',
          outcome: 'succeeded',
          target: { kind: 'api-key' },
          details: { role: 'admin', hostUser: expect.any(String) },
        });
      }
    });

    it('refuses unknown arguments and invalid configuration with exit 2 and no key', async () => {
      const database = await freshDatabaseUrl(engine);
      cleanups.push(database.remove);
      for (const argv of [['--revoke-other'], ['extra'], ['--revoke-others', '--label=x']]) {
        const refused = await run(argv, { DATABASE_URL: database.url });
        expect(refused.code, argv.join(' ')).toBe(2);
        expect(refused.keys).toEqual([]);
        expect(refused.notes).toContain('Usage: npm run admin-key');
      }
      const invalid = await run([], { DATABASE_URL: database.url, LOG_LEVEL: 'loud' });
      expect(invalid.code).toBe(2);
      expect(invalid.notes).toContain('LOG_LEVEL');
      const help = await run(['--help'], { DATABASE_URL: database.url });
      expect(help).toMatchObject({ code: 0, keys: [] });
    });
  });
}
