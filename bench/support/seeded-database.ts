/**
 * The seeded databases of the storage benchmarks (sessions list, search, usage): a SQLite file or a
 * PostgreSQL database that keeps its seed between runs. A marker row records which seed it holds; a
 * missing or different marker (or `--reseed`) rebuilds it from scratch, so a changed seed can never be
 * measured against stale rows.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, type AppDatabase, type Database } from '@agentdesk/storage';

export interface SeedPlan {
  /** Names the seed (its sizes, its shape): a database holding another version is rebuilt. */
  readonly version: string;
  /** Rebuild even when the marker matches (`--reseed`). */
  readonly reseed: boolean;
  /** Fills the freshly migrated, empty database (and builds or analyzes what the engine needs). */
  readonly seed: (database: AppDatabase) => Promise<void>;
}

/** Runs `work` and prints how long it took, in seconds. */
export async function timed(label: string, work: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function readSeedMarker(db: Kysely<Database>): Promise<string | undefined> {
  try {
    return (await sql<{ value: string }>`select value from bench_meta where key = 'seed'`.execute(db)).rows[0]
      ?.value;
  } catch {
    // No marker table: a database no benchmark has seeded.
    return undefined;
  }
}

async function writeSeedMarker(db: Kysely<Database>, version: string): Promise<void> {
  await sql`create table if not exists bench_meta (key text primary key, value text not null)`.execute(db);
  await sql`delete from bench_meta where key = 'seed'`.execute(db);
  await sql`insert into bench_meta (key, value) values ('seed', ${version})`.execute(db);
}

/** The SQLite file `file`, seeded by `plan` unless it already holds that seed. */
export async function openSeededSqlite(file: string, plan: SeedPlan): Promise<AppDatabase> {
  mkdirSync(dirname(file), { recursive: true });
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  };
  if (plan.reseed) remove();
  let database = openDatabase({ url: `sqlite:${file}` });
  if ((await readSeedMarker(database.db)) !== plan.version) {
    await database.destroy();
    remove();
    database = openDatabase({ url: `sqlite:${file}` });
    await migrateToLatest(database);
    await timed('seed SQLite', () => plan.seed(database));
    await writeSeedMarker(database.db, plan.version);
  }
  await migrateToLatest(database);
  return database;
}

/**
 * The PostgreSQL database `databaseName` on the server of `serverUrl` (created when missing), seeded
 * by `plan` into a fresh `public` schema unless it already holds that seed.
 */
export async function openSeededPostgres(
  serverUrl: string,
  databaseName: string,
  plan: SeedPlan,
): Promise<AppDatabase> {
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    const exists = await server.query('select 1 from pg_database where datname = $1', [databaseName]);
    if (exists.rowCount === 0) await server.query(`create database ${databaseName}`);
  } finally {
    await server.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const database = openDatabase({ url: url.toString(), poolSize: 2 });
  if (plan.reseed || (await readSeedMarker(database.db)) !== plan.version) {
    await sql`drop schema public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
    await migrateToLatest(database);
    await timed('seed PostgreSQL', () => plan.seed(database));
    await writeSeedMarker(database.db, plan.version);
  }
  await migrateToLatest(database);
  return database;
}
