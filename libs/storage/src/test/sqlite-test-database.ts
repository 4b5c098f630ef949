import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../migrate';
import { openDatabase } from '../open-database';
import { testDatabaseOver, type TestDatabaseFactory } from './test-database';

/** A migrated SQLite database in its own temp folder (a real file, so WAL is exercised). */
export const sqliteTestDatabase: TestDatabaseFactory = async () => {
  const folder = await mkdtemp(join(tmpdir(), 'agentdesk-storage-'));
  const database = openDatabase({ url: `sqlite:${join(folder, 'agentdesk.db')}` });
  await migrateToLatest(database);
  return testDatabaseOver(database, () => rm(folder, { recursive: true, force: true }));
};
