/**
 * The people directory over 100,000 users and 1,000,000 sessions, on SQLite (file, WAL) and PostgreSQL.
 *
 *   npx tsx bench/users.ts            # print the table
 *   npm run bench -- users
 *
 * Measures the repository calls the users routes make (`people.list`: one page of users plus the four
 * batched reads of that page's sessions, identities, keys and usage), one at a time, after a warm-up,
 * against the baseline the issue implies: the list as it was before (`users.listForAdmin`, a
 * `lower(...) like '%x%'` substring search, and no per-user columns at all).
 * Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_USERS
 * (default 100000), BENCH_SESSIONS (default 1000000), BENCH_RUNS (default 300).
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { createRepositories, type AppDatabase, type Database } from '@agentdesk/storage';
import { openSeededPostgres, openSeededSqlite } from './support/seeded-database';

const userCount = Number(process.env['BENCH_USERS'] ?? 100_000);
const sessionCount = Number(process.env['BENCH_SESSIONS'] ?? 1_000_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 300);
const warmupRuns = Math.max(30, Math.round(runs / 10));
const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const reseed = process.argv.includes('--reseed');
const base = Date.UTC(2026, 0, 1);
const seedVersion = `people-v2:${userCount}:${sessionCount}`;
const firstNames = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];

interface SeedDialect {
  numbers(count: number): string;
  hex(expression: string, width: number): string;
}
const sqliteSeed: SeedDialect = {
  numbers: (count) =>
    `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`,
  hex: (expression, width) => `printf('%0${width}x', ${expression})`,
};
const postgresSeed: SeedDialect = {
  numbers: (count) => `with n(i) as (select generate_series(0, ${count - 1})::bigint)`,
  hex: (expression, width) => `lpad(to_hex(${expression}), ${width}, '0')`,
};
const userId = (dialect: SeedDialect, index: string) =>
  `'00000000-0000-7000-8000-' || ${dialect.hex(index, 12)}`;

/** Users named "<First> <number>" (10 first names), sessions spread over them, usage per user per day for 30 days. */
async function seed(db: Kysely<Database>, dialect: SeedDialect): Promise<void> {
  const first = `case i % 10 ${firstNames.map((name, index) => `when ${index} then '${name}'`).join(' ')} end`;
  const owner = `((i * 7919) % ${userCount})`;
  await db.transaction().execute(async (transaction) => {
    await sql
      .raw(
        `${dialect.numbers(userCount)}
         insert into users (id, portal_id, external_id, display_name, created_at)
         select ${userId(dialect, 'i')}, 'portal-' || (i % 10), 'cust-' || i, ${first} || ' ' || i, ${base} + i from n`,
      )
      .execute(transaction);
    await sql
      .raw(
        `${dialect.numbers(sessionCount)}
         insert into sessions (id, owner_user_id, portal_id, label, status, model, system_prompt, metadata, created_at, updated_at)
         select ${userId(dialect, `i + ${userCount}`)}, ${userId(dialect, owner)}, 'portal-' || (${owner} % 10), 'Session ' || i,
                'open', 'gpt-5', null, '{}', ${base} + i * 2000, ${base} + i * 2000
         from n`,
      )
      .execute(transaction);
  });
  await seedUsage(db, dialect);
  await sql.raw('analyze').execute(db);
}

async function seedUsage(db: Kysely<Database>, dialect: SeedDialect): Promise<void> {
  const users = Math.ceil(userCount / 10);
  const day =
    dialect === sqliteSeed
      ? `printf('2026-01-%02d', (i % 30) + 1)`
      : `'2026-01-' || lpad(((i % 30) + 1)::text, 2, '0')`;
  await sql
    .raw(
      `${dialect.numbers(30 * users)}
       insert into usage_daily_totals (grouping, day, group_key, input_tokens, output_tokens, thinking_tokens, cached_tokens, model_calls, cost_micros, unpriced_calls)
       select 'user', ${day}, ${userId(dialect, '(i / 30) * 10')}, 100, 50, 0, 0, 2, 1000, 0 from n`,
    )
    .execute(db);
}

function p(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function measure(database: AppDatabase, engine: string): Promise<string[]> {
  const { people, users } = createRepositories(database);
  const range = { fromDay: '2026-01-01', toDay: '2026-01-30' };
  let call = 0;
  const prefix = () => {
    call += 1;
    // "<first name> <digits>": from a whole first name (10% of users) to a narrow one.
    const name = firstNames[call % firstNames.length]!;
    const digits = String((call * 7) % 1000).slice(0, call % 4);
    return `${name.slice(0, 3 + (call % 3))}${digits === '' ? '' : ` ${digits}`}`.slice(0, 3 + (call % 6));
  };
  const scenarios: Array<{ name: string; run: () => Promise<unknown> }> = [
    {
      name: 'users page (50, with sessions, last active, role, email, usage)',
      run: () => people.list({}, range, { limit: 50 }),
    },
    { name: 'name search (prefix, 50)', run: () => people.list({ prefix: prefix() }, range, { limit: 50 }) },
    { name: 'role filter admin (50)', run: () => people.list({ role: 'admin' }, range, { limit: 50 }) },
    { name: 'baseline: old list page (users only, 50)', run: () => users.listForAdmin({}, { limit: 50 }) },
    {
      name: 'baseline: old substring search (50)',
      run: () => users.listForAdmin({ search: prefix() }, { limit: 50 }),
    },
  ];
  const times = scenarios.map(() => [] as number[]);
  for (let index = 0; index < warmupRuns; index += 1) for (const scenario of scenarios) await scenario.run();
  // Alternate the scenarios so drift hits all alike.
  for (let index = 0; index < runs; index += 1)
    for (const [position, scenario] of scenarios.entries()) {
      const started = performance.now();
      await scenario.run();
      times[position]!.push(performance.now() - started);
    }
  return scenarios.map(
    (scenario, position) =>
      `| ${engine} | ${scenario.name} | ${p(times[position]!, 0.5).toFixed(2)} | ${p(times[position]!, 0.95).toFixed(2)} | ${p(times[position]!, 0.99).toFixed(2)} |`,
  );
}

const sqliteDatabase = await openSeededSqlite('data/bench/users.db', {
  version: seedVersion,
  reseed,
  seed: (database) => seed(database.db, sqliteSeed),
});
const postgresDatabase = await openSeededPostgres(serverUrl, 'agentdesk_bench_users', {
  version: seedVersion,
  reseed,
  seed: async (database) => {
    await seed(database.db, postgresSeed);
    await sql`vacuum analyze`.execute(database.db);
  },
});
const rows = [
  ...(await measure(sqliteDatabase, 'SQLite')),
  ...(await measure(postgresDatabase, 'PostgreSQL')),
];
await sqliteDatabase.destroy();
await postgresDatabase.destroy();
console.log(`${userCount} users, ${sessionCount} sessions, ${runs} runs each, ${cpus().length} CPUs`);
console.log('| engine | scenario | p50 ms | p95 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
console.log(rows.join('\n'));
