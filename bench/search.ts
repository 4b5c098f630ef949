/**
 * Full-text search over every user's messages (GET /v1/admin/search/messages's repository call)
 * over 1M messages, on SQLite (FTS5) and PostgreSQL (tsvector + GIN): the last word matched as a
 * prefix (issue 20), side by side with the whole-word query that came before (the baseline, its SQL
 * kept below), prefixes short and long, a 1,000-character query, and filters.
 *
 *   npm run bench -- search                   # print the table
 *   npx tsx bench/search.ts --write           # also update docs/benchmarks/search.md
 *
 * Seeds once in bulk SQL and reuses the databases (`data/bench/search.db`, PostgreSQL database
 * `agentdesk_bench_search`); `--reseed` forces a fresh seed. Environment: BENCH_POSTGRES_URL,
 * BENCH_MESSAGES (default 1000000), BENCH_RUNS (default 500).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { createRepositories, searchTermsOf, type AppDatabase, type Database } from '@agentdesk/storage';
import { openSeededPostgres, openSeededSqlite, timed } from './support/seeded-database';

const messageCount = Number(process.env['BENCH_MESSAGES'] ?? 1_000_000);
const messagesPerSession = 10;
const sessionCount = Math.ceil(messageCount / messagesPerSession);
const userCount = Math.max(1, Math.round(sessionCount / 10));
const runs = Number(process.env['BENCH_RUNS'] ?? 500);
const warmupRuns = Math.max(20, Math.round(runs / 10));
const pageSize = 25;
const vocabulary = 20_000;
const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresDatabaseName = 'agentdesk_bench_search';
const sqliteFile = 'data/bench/search.db';
const documentPath = 'docs/benchmarks/search.md';
const reseed = process.argv.includes('--reseed');
const writeDocument = process.argv.includes('--write');
const baseMilliseconds = Date.UTC(2026, 0, 1);
const seedVersion = `v1:${messageCount}`;

interface SeedDialect {
  numbers(count: number): string;
  hex(expression: string, width: number): string;
  json(expression: string): string;
}
const sqliteSeed: SeedDialect = {
  numbers: (count) =>
    `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`,
  hex: (expression, width) => `printf('%0${width}x', ${expression})`,
  json: (expression) => expression,
};
const postgresSeed: SeedDialect = {
  numbers: (count) => `with n(i) as (select generate_series(0, ${count - 1})::bigint)`,
  hex: (expression, width) => `lpad(to_hex(${expression}), ${width}, '0')`,
  json: (expression) => `(${expression})::jsonb`,
};

const id = (dialect: SeedDialect, kind: string, index: string) =>
  `'00000000-0000-7000-${kind}-' || ${dialect.hex(index, 12)}`;

/**
 * Each message: ten words from a 20,000-word vocabulary spread by multiplicative hashing (so a
 * vocabulary word is in ~0.05% of messages), plus "invoice" in every 10th message and "urgent"
 * in every 100th: a rare, a common and a combined search.
 */
function messageText(): string {
  const words = Array.from(
    { length: 10 },
    (_, k) => `'w' || ((i * ${7919 + k * 104_729} + ${k * 31}) % ${vocabulary})`,
  );
  return `'Message ' || i || ' ' || ${words.join(" || ' ' || ")} || case when i % 10 = 0 then ' invoice' else '' end || case when i % 100 = 0 then ' urgent' else '' end`;
}

async function seed(db: Kysely<Database>, dialect: SeedDialect): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await sql
      .raw(
        `${dialect.numbers(userCount)} insert into users (id, portal_id, external_id, display_name, created_at)
         select ${id(dialect, '8000', 'i')}, null, 'user-' || i, 'User ' || i, ${baseMilliseconds} from n`,
      )
      .execute(transaction);
    await sql
      .raw(
        `${dialect.numbers(sessionCount)} insert into sessions (id, owner_user_id, portal_id, label, status, model, system_prompt, metadata, created_at, updated_at)
         select ${id(dialect, '9000', 'i')}, ${id(dialect, '8000', `i % ${userCount}`)}, null, 'Session ' || i, 'open', 'gpt-5', null, '{}', ${baseMilliseconds} + i * 10000, ${baseMilliseconds} + i * 10000 from n`,
      )
      .execute(transaction);
    await sql
      .raw(
        `${dialect.numbers(messageCount)} insert into messages (id, session_id, seq, role, content, status, started_at, created_at)
         select ${id(dialect, 'a000', 'i')}, ${id(dialect, '9000', `i / ${messagesPerSession}`)}, (i % ${messagesPerSession}) + 1,
                case when i % 2 = 0 then 'user' else 'assistant' end,
                ${dialect.json(`'[{"type":"text","text":"' || ${messageText()} || '"}]'`)},
                'complete', ${baseMilliseconds} + i * 1000, ${baseMilliseconds} + i * 1000 from n`,
      )
      .execute(transaction);
  });
}

async function openSqlite(): Promise<AppDatabase> {
  return openSeededSqlite(sqliteFile, {
    version: seedVersion,
    reseed,
    seed: async (database) => {
      // The triggers of migration 0006 index every inserted row: the seed goes through them.
      await seed(database.db, sqliteSeed);
      await sql`analyze`.execute(database.db);
    },
  });
}

async function openPostgres(): Promise<AppDatabase> {
  return openSeededPostgres(serverUrl, postgresDatabaseName, {
    version: seedVersion,
    reseed,
    seed: async (database) => {
      // Bulk load without the GIN index, then build it once (the generated column fills on insert).
      await sql`drop index messages_search_vector`.execute(database.db);
      await seed(database.db, postgresSeed);
      await timed('GIN index', async () => {
        await sql`create index messages_search_vector on messages using gin (search_vector)`.execute(
          database.db,
        );
      });
      await sql`vacuum analyze`.execute(database.db);
    },
  });
}

/**
 * The baseline: the search before issue 20, whole words only (PostgreSQL `plainto_tsquery`, FTS5
 * quoted terms), run on the same database in the same rounds.
 */
async function wholeWordSearch(database: AppDatabase, query: string, limit: number): Promise<number> {
  const terms = searchTermsOf(query);
  if (database.dialect === 'postgres') {
    const { rows } = await sql`
      select messages.*, sessions.owner_user_id
      from messages join sessions on sessions.id = messages.session_id
      where messages.search_vector @@ plainto_tsquery('simple'::regconfig, ${terms.join(' ')})
      order by messages.created_at desc, messages.id desc
      limit ${limit + 1}
    `.execute(database.db);
    return Math.min(rows.length, limit);
  }
  const { rows } = await sql`
    select messages.*, sessions.owner_user_id, message_search.rowid as search_row
    from message_search
    join message_search_rows on message_search_rows.rowid = message_search.rowid
    join messages on messages.id = message_search_rows.message_id
    join sessions on sessions.id = messages.session_id
    where message_search match ${terms.map((term) => `"${term}"`).join(' ')}
    order by message_search.rowid desc
    limit ${limit + 1}
  `.execute(database.db);
  return Math.min(rows.length, limit);
}

/** 1,000 characters of rare words (about 170 of them): the longest query the API takes; 16 are searched. */
function longQuery(call: number): string {
  let text = '';
  for (let word = 0; text.length < 1_000; word += 1) text += `w${(call * 7_877 + word * 131) % vocabulary} `;
  return text.slice(0, 1_000);
}

interface Result {
  engine: string;
  scenario: string;
  rows: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))]!;
}

async function measure(
  engine: string,
  name: string,
  run: (call: number) => Promise<number>,
): Promise<Result> {
  let rows = 0;
  for (let call = 0; call < warmupRuns; call += 1) rows = await run(call);
  const durations: number[] = [];
  for (let call = 0; call < runs; call += 1) {
    const started = performance.now();
    await run(call + warmupRuns);
    durations.push(performance.now() - started);
  }
  durations.sort((left, right) => left - right);
  return {
    engine,
    scenario: name,
    rows,
    p50: percentile(durations, 0.5),
    p95: percentile(durations, 0.95),
    p99: percentile(durations, 0.99),
    max: durations.at(-1)!,
  };
}

async function main(): Promise<void> {
  console.log(
    `${messageCount.toLocaleString('en')} messages in ${sessionCount.toLocaleString('en')} sessions of ${userCount.toLocaleString('en')} users; ${runs} timed runs after ${warmupRuns} warm-up; page size ${pageSize}`,
  );
  const results: Result[] = [];
  for (const [engine, open] of [
    ['SQLite', openSqlite],
    ['PostgreSQL', openPostgres],
  ] as const) {
    const database = await open();
    try {
      const { transcript } = createRepositories(database);
      // A different rare word on each call, so no one posting list stays hot.
      const rareWord = (call: number) => `w${(call * 7_877) % vocabulary}`;
      let secondPage: string | null = null;
      const userId = (call: number) =>
        `00000000-0000-7000-8000-${((call * 37) % userCount).toString(16).padStart(12, '0')}`;
      // The seed writes one message a second: its last day holds ~8.6% of them.
      const lastDay = {
        createdFrom: new Date(baseMilliseconds + (messageCount - 86_400) * 1000),
        createdBefore: new Date(baseMilliseconds + messageCount * 1000),
      };
      const scenarios: Array<[string, (call: number) => Promise<number>]> = [
        [
          'before (whole words): rare word',
          async (call) => wholeWordSearch(database, rareWord(call), pageSize),
        ],
        ['before (whole words): common word', async () => wholeWordSearch(database, 'invoice', pageSize)],
        [
          'before (whole words): two words, AND',
          async () => wholeWordSearch(database, 'urgent invoice', pageSize),
        ],
        [
          'now: rare word (~0.05%), as a prefix',
          async (call) => (await transcript.searchMessages(rareWord(call), { limit: pageSize })).items.length,
        ],
        [
          'now: common word (10%), as a prefix',
          async () => (await transcript.searchMessages('invoice', { limit: pageSize })).items.length,
        ],
        [
          'now: two words, AND (1%), the last a prefix',
          async () => (await transcript.searchMessages('urgent invoice', { limit: pageSize })).items.length,
        ],
        [
          'common word, second page (cursor)',
          async () => {
            secondPage ??= (await transcript.searchMessages('invoice', { limit: pageSize })).nextCursor;
            return (await transcript.searchMessages('invoice', { limit: pageSize, cursor: secondPage })).items
              .length;
          },
        ],
        [
          'rare word AND common word as a prefix',
          async (call) =>
            (await transcript.searchMessages(`${rareWord(call)} invoice`, { limit: pageSize })).items.length,
        ],
        [
          'common word AND rare word as a prefix',
          async (call) =>
            (await transcript.searchMessages(`invoice ${rareWord(call)}`, { limit: pageSize })).items.length,
        ],
        [
          'no match',
          async () => (await transcript.searchMessages('zzzznotaword', { limit: pageSize })).items.length,
        ],
        [
          'prefix of a common word ("invo")',
          async () => (await transcript.searchMessages('invo', { limit: pageSize })).items.length,
        ],
        [
          'short prefix, 3 characters (~45% of messages)',
          async (call) =>
            (await transcript.searchMessages(`w${10 + (call % 90)}`, { limit: pageSize })).items.length,
        ],
        [
          'rare word AND a 4-letter prefix, none has both',
          async (call) =>
            (await transcript.searchMessages(`${rareWord(call)} urge`, { limit: pageSize })).items.length,
        ],
        [
          '1,000-character query (first 16 words)',
          async (call) =>
            (await transcript.searchMessages(longQuery(call), { limit: pageSize })).items.length,
        ],
        [
          'common word, one person',
          async (call) =>
            (await transcript.searchMessages('invoice', { limit: pageSize }, { ownerUserId: userId(call) }))
              .items.length,
        ],
        [
          'common word, role + last day',
          async () =>
            (await transcript.searchMessages('invoice', { limit: pageSize }, { role: 'user', ...lastDay }))
              .items.length,
        ],
      ];
      for (const [name, run] of scenarios) {
        const result = await measure(engine, name, run);
        console.log(`${engine} · ${name}: p95 ${result.p95.toFixed(2)} ms`);
        results.push(result);
      }
    } finally {
      await database.destroy();
    }
  }
  const lines = [
    '| engine | search | rows | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.engine} | ${result.scenario} | ${result.rows} | ${result.p50.toFixed(2)} | ${result.p95.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.max.toFixed(2)} |`,
    ),
  ];
  const output = lines.join('\n');
  console.log(`\n${output}`);
  if (writeDocument && existsSync(documentPath)) {
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
    const section = `<!-- results:start -->\n${machine}; ${messageCount.toLocaleString('en')} messages, ${runs} runs after ${warmupRuns} warm-up, page size ${pageSize}.\n\n${output}\n<!-- results:end -->`;
    const document = readFileSync(documentPath, 'utf8');
    writeFileSync(
      documentPath,
      document.replace(/<!-- results:start -->[\s\S]*<!-- results:end -->/, section),
    );
    console.log(`updated ${documentPath}`);
  }
}

await main();
