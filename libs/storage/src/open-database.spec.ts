import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate';
import { openDatabase, parseDatabaseUrl } from './open-database';

describe('parseDatabaseUrl', () => {
  it.each([
    [
      'postgres://postgres@127.0.0.1:5432/test',
      { dialect: 'postgres', connectionString: 'postgres://postgres@127.0.0.1:5432/test' },
    ],
    [
      'postgresql://u:p@db/agentdesk',
      { dialect: 'postgres', connectionString: 'postgresql://u:p@db/agentdesk' },
    ],
    ['sqlite:data/agentdesk.db', { dialect: 'sqlite', filename: 'data/agentdesk.db' }],
    ['sqlite:///var/lib/agentdesk.db', { dialect: 'sqlite', filename: '/var/lib/agentdesk.db' }],
    ['sqlite::memory:', { dialect: 'sqlite', filename: ':memory:' }],
    [':memory:', { dialect: 'sqlite', filename: ':memory:' }],
    ['file:data/x.db', { dialect: 'sqlite', filename: 'data/x.db' }],
    ['data/agentdesk.db', { dialect: 'sqlite', filename: 'data/agentdesk.db' }],
    ['/abs/path.db', { dialect: 'sqlite', filename: '/abs/path.db' }],
  ])('%s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it('rejects unknown schemes without echoing credentials', () => {
    expect(() => parseDatabaseUrl('mysql://root:secret@db/x')).toThrow(/mysql/);
    expect(() => parseDatabaseUrl('mysql://root:secret@db/x')).not.toThrow(/secret/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/file name/);
    expect(() => parseDatabaseUrl('  ')).toThrow(/empty/);
  });
});

describe('openDatabase on SQLite', () => {
  it('creates the folder, uses WAL and enforces foreign keys', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentdesk-open-'));
    const filename = join(folder, 'nested', 'agentdesk.db');
    const database = openDatabase({ url: `sqlite:${filename}` });
    try {
      expect(database.dialect).toBe('sqlite');
      expect(existsSync(join(folder, 'nested'))).toBe(true);
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(journal.rows[0]?.journal_mode).toBe('wal');
      const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
      expect(await migrateToLatest(database)).toEqual([
        '0001-initial-schema',
        '0002-agent-turns',
        '0003-idempotency-fingerprints',
        '0004-audit-client-request-id',
        '0005-sandbox-builds',
        '0006-message-search',
        '0007-session-filters-audit-dedup',
        '0008-usage-events',
        '0009-message-token-counts',
        '0010-session-triggered-sandbox-builds',
        '0011-console-sessions',
        '0012-audit-outcomes-and-targets',
        '0013-sso-identities',
        '0014-model-prices',
        '0015-people',
        '0016-export-indexes',
        '0017-search-prefixes',
        '0018-qa-suites',
        '0019-qa-key-role',
        '0020-sqlite-unicode-keys',
      ]);
    } finally {
      await database.destroy();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('works in memory', async () => {
    const database = openDatabase({ url: 'sqlite::memory:' });
    try {
      expect(await migrateToLatest(database)).toEqual([
        '0001-initial-schema',
        '0002-agent-turns',
        '0003-idempotency-fingerprints',
        '0004-audit-client-request-id',
        '0005-sandbox-builds',
        '0006-message-search',
        '0007-session-filters-audit-dedup',
        '0008-usage-events',
        '0009-message-token-counts',
        '0010-session-triggered-sandbox-builds',
        '0011-console-sessions',
        '0012-audit-outcomes-and-targets',
        '0013-sso-identities',
        '0014-model-prices',
        '0015-people',
        '0016-export-indexes',
        '0017-search-prefixes',
        '0018-qa-suites',
        '0019-qa-key-role',
        '0020-sqlite-unicode-keys',
      ]);
    } finally {
      await database.destroy();
    }
  });
});
