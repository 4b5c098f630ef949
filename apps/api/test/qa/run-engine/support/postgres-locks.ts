import type { AppDatabase } from '@agentdesk/storage';
import { sql } from 'kysely';
import pg from 'pg';
import { CELL_QUEUE_NAME } from '../../../../src/qa/run-engine';
import { waitFor, type WaitOptions } from '../../../support/wait-for';

/**
 * How a test stops an API replica at a chosen step of its work on PostgreSQL: it holds, in a
 * transaction of its own, the lock that step needs, and watches `pg_stat_activity` until the
 * replica's backend (told apart by the `application_name` of its DATABASE_URL) waits for it.
 */

/** The test's own lock-holding sessions, recognisable among the replicas' in `pg_stat_activity`. */
const LOCK_HOLDER_APPLICATION = 'kill-point-lock-holder';

/** Locks a transaction of the test holds until `release` rolls it back (it never writes). */
export interface HeldLock {
  /** What is locked, for messages. */
  readonly what: string;
  /** The rows the locking statement returned. */
  readonly rows: readonly Record<string, unknown>[];
  /** Rolls the transaction back, which frees the lock, and closes the session; later calls do nothing. */
  release(): Promise<void>;
}

/** Opens a session on `url`, begins a transaction and runs `statement` in it: its locks stay held. */
export async function holdLock(
  url: string,
  what: string,
  statement: string,
  values: readonly unknown[] = [],
): Promise<HeldLock> {
  const client = new pg.Client({ connectionString: url, application_name: LOCK_HOLDER_APPLICATION });
  // The database is dropped `with (force)` after the test: a session still open then must not
  // crash the test process with an unhandled 'error' event.
  client.on('error', () => undefined);
  await client.connect();
  let rows: Record<string, unknown>[];
  try {
    await client.query('begin');
    rows = (await client.query<Record<string, unknown>>(statement, [...values])).rows;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let released: Promise<void> | undefined;
  return {
    what,
    rows,
    release() {
      released ??= client
        .query('rollback')
        .then(() => undefined)
        .finally(() => client.end());
      return released;
    },
  };
}

/** The row of one cell of a run: its claim, lease renewals and finishing UPDATE wait for it. */
export function lockCellRow(
  url: string,
  runId: string,
  caseIndex: number,
  targetIndex: number,
): Promise<HeldLock> {
  return holdLock(
    url,
    `the row of cell ${caseIndex}/${targetIndex}`,
    `select status from qa_run_cells where run_id = $1 and case_index = $2 and target_index = $3 for update`,
    [runId, caseIndex, targetIndex],
  );
}

/**
 * The pg-boss job rows of a run's cells. Taken only once a replica fetched the job: pg-boss's
 * fetch skips locked rows (`FOR UPDATE SKIP LOCKED`), its completion and expiry wait for them.
 */
export function lockCellJobRows(url: string, pgBossSchema: string, runId: string): Promise<HeldLock> {
  return holdLock(
    url,
    'the pg-boss job rows of the run',
    `select id, state from ${pgBossSchema}.job where name = $1 and data->>'runId' = $2 for update`,
    [CELL_QUEUE_NAME, runId],
  );
}

/**
 * The whole table of suite versions, against reads too: a replica reads the definition of a run
 * once it claimed one of its cells (`RunDirectory`), before calling the model, so this holds it
 * just after its claim while its lease heartbeat runs.
 */
export function lockSuiteVersionsTable(url: string): Promise<HeldLock> {
  return holdLock(
    url,
    'the qa_suite_versions table',
    'lock table qa_suite_versions in access exclusive mode',
  );
}

/**
 * pg-boss's maintenance lock: it expires active jobs (`failJobsByTimeout`) only inside a
 * transaction holding this advisory lock (`locked` and `advisoryLock` in pg-boss 10's plans.js,
 * keyed by database and schema). Held, no job fetched while the test lines a replica up can
 * expire and go to the other replica meanwhile.
 */
export function holdPgBossMaintenance(url: string, pgBossSchema: string): Promise<HeldLock> {
  return holdLock(
    url,
    'pg-boss maintenance (its advisory lock)',
    `select pg_advisory_xact_lock(
       ('x' || encode(sha224((current_database() || '.pgboss.${pgBossSchema}')::bytea), 'hex'))::bit(64)::bigint
     )`,
  );
}

/** Releases every lock, newest first (each one at most once). */
export async function releaseAll(locks: HeldLock[]): Promise<void> {
  for (const lock of locks.splice(0).reverse()) await lock.release();
}

/** One backend of the database as `pg_stat_activity` shows it. */
export interface Backend {
  readonly pid: number;
  readonly application: string;
  readonly state: string | null;
  readonly waitEventType: string | null;
  readonly waitEvent: string | null;
  readonly query: string;
}

/** The backends of these applications on the database `database` is connected to. */
export async function backendsOf(database: AppDatabase, applications: readonly string[]): Promise<Backend[]> {
  const result = await sql<Backend>`
    select pid, application_name as application, state, wait_event_type as "waitEventType",
           wait_event as "waitEvent", query
      from pg_stat_activity
     where datname = current_database() and application_name in (${sql.join(applications)})
     order by application_name, pid`.execute(database.db);
  return result.rows;
}

/** The applications with a backend waiting for a lock while running a statement that `statement` matches. */
export async function applicationsWaitingOnLock(
  database: AppDatabase,
  applications: readonly string[],
  statement: RegExp,
): Promise<string[]> {
  const waiting = (await backendsOf(database, applications)).filter(
    (backend) => backend.waitEventType === 'Lock' && statement.test(backend.query),
  );
  return [...new Set(waiting.map((backend) => backend.application))];
}

/**
 * Ends the backends a `kill -9`ed process left behind and waits until they are gone. Such a
 * backend lives on until it next talks to its client: one blocked on the test's lock would, once
 * the lock is released, still run the dead process's statement (an autocommit claim or job
 * completion would land). PostgreSQL ends it by itself once it notices the closed socket (TCP
 * keepalive, `client_connection_check_interval`); ending it at once puts the crash exactly where
 * the process died.
 */
export async function endBackendsOf(
  database: AppDatabase,
  application: string,
  options: WaitOptions = {},
): Promise<void> {
  await sql`
    select pg_terminate_backend(pid)
      from pg_stat_activity
     where datname = current_database() and application_name = ${application}`.execute(database.db);
  await waitFor(
    async () => ((await backendsOf(database, [application])).length === 0 ? true : undefined),
    `the backends of the killed ${application} to end`,
    options,
  );
}

/** One pg-boss job of a run's cells. */
export interface CellJobRow {
  readonly id: string;
  readonly state: string;
  /** Deliveries after the first (pg-boss counts a fetch of a job fetched before as a retry). */
  readonly retryCount: number;
  readonly cell: string;
}

/** The pg-boss jobs of a run's cells, oldest first. */
export async function cellJobsOf(
  database: AppDatabase,
  pgBossSchema: string,
  runId: string,
): Promise<CellJobRow[]> {
  const result = await sql<CellJobRow>`
    select id, state, retry_count as "retryCount",
           (data->>'caseIndex') || '/' || (data->>'targetIndex') as cell
      from ${sql.table(`${pgBossSchema}.job`)}
     where name = ${CELL_QUEUE_NAME} and data->>'runId' = ${runId}
     order by created_on, id`.execute(database.db);
  return result.rows;
}
