/**
 * Admin cross-user session list over 1M sessions, on SQLite (file, WAL) and PostgreSQL.
 *
 *   npx tsx bench/sessions-list.ts            # print the table
 *   npx tsx bench/sessions-list.ts --write    # also update docs/benchmarks/sessions-list.md
 *
 * Seeds once and reuses the seeded databases on later runs (`data/bench/sessions-list.db` and the
 * PostgreSQL database `agentdesk_bench`); `--reseed` forces a fresh seed. Measures the real
 * repository calls (Kysely query building + driver + engine), one at a time, after a warm-up.
 * Environment: BENCH_POSTGRES_URL (server, default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_SESSIONS (default 1000000), BENCH_RUNS (default 2000).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
// The storage layer lives inside the api app and there is no path alias for it; the benchmark
// must time exactly the repository code the API runs, so it imports it directly.
import {
  createRepositories,
  type AdminSessionFilter,
  type AppDatabase,
  type Database,
  type Page,
  type Session,
} from '@agentdesk/storage';
import { openSeededPostgres, openSeededSqlite } from './support/seeded-database';

const sessionCount = Number(process.env['BENCH_SESSIONS'] ?? 1_000_000);
const userCount = Math.max(1, Math.round(sessionCount / 100));
const runs = Number(process.env['BENCH_RUNS'] ?? 2000);
const warmupRuns = Math.max(100, Math.round(runs / 10));
const pageSize = 50;
const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresDatabaseName = 'agentdesk_bench';
const sqliteFile = 'data/bench/sessions-list.db';
const documentPath = 'docs/benchmarks/sessions-list.md';
const reseed = process.argv.includes('--reseed');
const writeDocument = process.argv.includes('--write');

// Sessions are 2 s apart (1M span ~23 days); owners are spread pseudo-randomly over the users;
// every 10th session is closed; labels cycle through 8 topics.
const baseMilliseconds = Date.UTC(2026, 0, 1);
const spacingMilliseconds = 2000;
// Bump when the schema or the seed changes, so a stale seeded database is rebuilt.
const seedVersion = `v2:${sessionCount}:${userCount}`;
const topics = ['invoice', 'refund', 'report', 'onboarding', 'bug', 'billing', 'travel', 'support'];

interface Scenario {
  readonly name: string;
  readonly run: () => Promise<Page<Session>>;
}

interface Result {
  readonly engine: string;
  readonly scenario: string;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
  readonly rows: number;
}

/** SQL fragments that differ between the engines; everything else is shared. */
interface SeedDialect {
  readonly name: 'sqlite' | 'postgres';
  /** Rows 0..count-1 as `n(i)`. */
  numbers(count: number): string;
  hex(expression: string, width: number): string;
}

const sqliteSeed: SeedDialect = {
  name: 'sqlite',
  numbers: (count) =>
    `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`,
  hex: (expression, width) => `printf('%0${width}x', ${expression})`,
};

const postgresSeed: SeedDialect = {
  name: 'postgres',
  numbers: (count) => `with n(i) as (select generate_series(0, ${count - 1})::bigint)`,
  hex: (expression, width) => `lpad(to_hex(${expression}), ${width}, '0')`,
};

function userIdExpression(dialect: SeedDialect, index: string): string {
  return `'00000000-0000-7000-8000-' || ${dialect.hex(index, 12)}`;
}

/** Builds the whole seed in SQL: no round trip per row, one statement per table. */
async function seed(db: Kysely<Database>, dialect: SeedDialect): Promise<void> {
  const created = `(${baseMilliseconds} + i * ${spacingMilliseconds})`;
  const topic = `case i % ${topics.length} ${topics.map((name, index) => `when ${index} then '${name}'`).join(' ')} end`;
  const sessionId = [
    dialect.hex(`${created} / 65536`, 8),
    `'-'`,
    dialect.hex(`${created} % 65536`, 4),
    `'-7'`,
    dialect.hex('i % 4096', 3),
    `'-8'`,
    dialect.hex('(i / 4096) % 4096', 3),
    `'-'`,
    dialect.hex('i', 12),
  ].join(' || ');
  const owner = `(i * 7919) % ${userCount}`;

  await db.transaction().execute(async (transaction) => {
    await sql
      .raw(
        `${dialect.numbers(userCount)}
         insert into users (id, portal_id, external_id, display_name, created_at)
         select ${userIdExpression(dialect, 'i')}, 'portal-' || (i % 10), 'user-' || i, 'User ' || i, ${baseMilliseconds} - 1000 + i from n`,
      )
      .execute(transaction);
    await sql
      .raw(
        `${dialect.numbers(sessionCount)}
         insert into sessions (id, owner_user_id, portal_id, label, status, model, system_prompt, metadata, created_at, updated_at)
         select ${sessionId}, ${userIdExpression(dialect, owner)}, 'portal-' || (${owner} % 10),
                'Session ' || i || ' about ' || ${topic},
                case when i % 10 = 0 then 'closed' else 'open' end,
                'gpt-5', null, '{}', ${created}, ${created}
         from n`,
      )
      .execute(transaction);
  });
  await sql.raw('analyze').execute(db);
}

async function openSqlite(): Promise<AppDatabase> {
  return openSeededSqlite(sqliteFile, {
    version: seedVersion,
    reseed,
    seed: (database) => seed(database.db, sqliteSeed),
  });
}

async function openPostgres(): Promise<AppDatabase> {
  return openSeededPostgres(serverUrl, postgresDatabaseName, {
    version: seedVersion,
    reseed,
    seed: async (database) => {
      await seed(database.db, postgresSeed);
      await sql`vacuum analyze sessions`.execute(database.db);
    },
  });
}

function scenarios(database: AppDatabase): Scenario[] {
  const { sessions } = createRepositories(database);
  let call = 0;
  // A different user on each call, so the owner scenarios do not re-read one hot index page.
  const nextUserId = (): string => {
    call += 1;
    const index = (call * 104_729) % userCount;
    return `00000000-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;
  };
  const middle = new Date(baseMilliseconds + (sessionCount / 2) * spacingMilliseconds);
  const filtered: AdminSessionFilter = { status: 'closed', labelContains: 'report', createdBefore: middle };
  let secondPageCursor: string | null = null;

  return [
    {
      name: 'admin: all users, first page',
      run: () => sessions.listAllSessionsForAdmin({}, { limit: pageSize }),
    },
    {
      name: 'admin: all users, second page (cursor)',
      run: async () => {
        secondPageCursor ??= (await sessions.listAllSessionsForAdmin({}, { limit: pageSize })).nextCursor;
        return sessions.listAllSessionsForAdmin({}, { limit: pageSize, cursor: secondPageCursor });
      },
    },
    {
      name: 'admin: closed + label "report" + before mid-range',
      run: () => sessions.listAllSessionsForAdmin(filtered, { limit: pageSize }),
    },
    {
      name: 'admin: filter by one user',
      run: () => sessions.listAllSessionsForAdmin({ ownerUserId: nextUserId() }, { limit: pageSize }),
    },
    {
      name: 'user: own sessions, first page',
      run: () => sessions.listForOwner(nextUserId(), {}, { limit: 20 }),
    },
  ];
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

async function measure(engine: string, scenario: Scenario): Promise<Result> {
  let rows = 0;
  for (let run = 0; run < warmupRuns; run += 1) rows = (await scenario.run()).items.length;
  const durations: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await scenario.run();
    durations.push(performance.now() - started);
  }
  durations.sort((left, right) => left - right);
  const mean = durations.reduce((sum, value) => sum + value, 0) / durations.length;
  return {
    engine,
    scenario: scenario.name,
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    mean,
    max: durations.at(-1)!,
    rows,
  };
}

async function explain(database: AppDatabase): Promise<string[]> {
  const { db } = database;
  const query = db
    .selectFrom('sessions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .compile();
  const prefix = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await sql
    .raw<Record<string, unknown>>(prefix + query.sql.replace(/\$1|\?/, String(pageSize + 1)))
    .execute(db);
  return result.rows.map((row) => String(row['detail'] ?? row['QUERY PLAN']));
}

function table(results: Result[]): string {
  const lines = [
    '| engine | query | rows | p50 ms | p99 ms | mean ms | max ms | target p99 |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const result of results) {
    const target = result.scenario.startsWith('admin: all users, first page')
      ? result.engine === 'SQLite'
        ? '≤ 5 ms'
        : '≤ 15 ms'
      : '';
    lines.push(
      `| ${result.engine} | ${result.scenario} | ${result.rows} | ${result.p50.toFixed(3)} | ${result.p99.toFixed(3)} | ${result.mean.toFixed(3)} | ${result.max.toFixed(2)} | ${target} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  console.log(
    `${sessionCount.toLocaleString('en')} sessions over ${userCount.toLocaleString('en')} users; ${runs} timed runs after ${warmupRuns} warm-up runs; page size ${pageSize}`,
  );
  const results: Result[] = [];
  const plans: string[] = [];
  for (const [engine, open] of [
    ['SQLite', openSqlite],
    ['PostgreSQL', openPostgres],
  ] as const) {
    const database = await open();
    try {
      const count = await database.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      console.log(`${engine}: ${Number(count.count).toLocaleString('en')} sessions`);
      plans.push(`${engine}: ${(await explain(database)).join(' / ')}`);
      for (const scenario of scenarios(database)) results.push(await measure(engine, scenario));
    } finally {
      await database.destroy();
    }
  }
  const output = table(results);
  console.log(`\n${output}\n\n${plans.join('\n')}`);

  if (writeDocument && existsSync(documentPath)) {
    const document = readFileSync(documentPath, 'utf8');
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
    const section = `<!-- results:start -->\n${machine}; ${sessionCount.toLocaleString('en')} sessions, ${userCount.toLocaleString('en')} users, ${runs} runs after ${warmupRuns} warm-up, page size ${pageSize} (own list: 20).\n\n${output}\n\nFirst-page plans:\n\n${plans.map((plan) => `- ${plan}`).join('\n')}\n<!-- results:end -->`;
    writeFileSync(
      documentPath,
      document.replace(/<!-- results:start -->[\s\S]*<!-- results:end -->/, section),
    );
    console.log(`updated ${documentPath}`);
  }
}

await main();
