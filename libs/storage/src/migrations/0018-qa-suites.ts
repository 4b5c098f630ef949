import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * QA suites (issue 21): versioned sets of structured-output cases, and their runs.
 *
 * - `qa_suites`: one row per suite, with what a listing shows of its latest version; the name is
 *   unique. `latest_version` is also the optimistic lock of a save (a save names the version it
 *   edited; a stale one changes nothing).
 * - `qa_suite_versions`: every saved definition, never changed. On PostgreSQL `json`, not `jsonb`:
 *   the definition is exported back as a file, and `jsonb` would reorder its keys.
 * - `qa_suite_runs`: one run of one version. Its counters (`done` = passed + failed + errored +
 *   cancelled, out of `total`) are changed only in the transaction that finishes a cell, so a
 *   progress read is one row, never a count over the cells.
 * - `qa_run_cells`: one case × target of a run. A worker claims a cell with a lease
 *   (`claimed_by`, `lease_until`); another may claim it once the lease has passed, and only the
 *   current claimer's result is kept. `result` holds the full answer and assertion outcomes,
 *   read one cell at a time; listings read the other columns.
 */
export function qaSuites(dialect: DatabaseDialect): Migration {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  const verbatimJson = dialect === 'postgres' ? sql`json` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('qa_suites')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull().unique())
        .addColumn('description', 'text')
        .addColumn('latest_version', 'integer', (column) => column.notNull())
        .addColumn('case_count', 'integer', (column) => column.notNull())
        .addColumn('target_count', 'integer', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('qa_suites_created_at_id')
        .on('qa_suites')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('qa_suite_versions')
        .addColumn('suite_id', 'text', (column) =>
          column.notNull().references('qa_suites.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (column) => column.notNull())
        .addColumn('definition', verbatimJson, (column) => column.notNull())
        .addColumn('note', 'text')
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addPrimaryKeyConstraint('qa_suite_versions_pk', ['suite_id', 'version'])
        .execute();

      await db.schema
        .createTable('qa_suite_runs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('suite_id', 'text', (column) => column.notNull())
        .addColumn('suite_version', 'integer', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('options', json, (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('total', 'integer', (column) => column.notNull())
        .addColumn('done', 'integer', (column) => column.notNull())
        .addColumn('passed', 'integer', (column) => column.notNull())
        .addColumn('failed', 'integer', (column) => column.notNull())
        .addColumn('errored', 'integer', (column) => column.notNull())
        .addColumn('cancelled', 'integer', (column) => column.notNull())
        .addForeignKeyConstraint(
          'qa_suite_runs_version_fk',
          ['suite_id', 'suite_version'],
          'qa_suite_versions',
          ['suite_id', 'version'],
          (constraint) => constraint.onDelete('cascade'),
        )
        .addCheckConstraint('qa_suite_runs_status', sql`status in ('running', 'completed', 'cancelled')`)
        .addCheckConstraint(
          'qa_suite_runs_counts',
          sql`done = passed + failed + errored + cancelled and done >= 0 and done <= total`,
        )
        .execute();
      // A suite's runs newest first (the listing's keyset order), and the previous finished run.
      await db.schema
        .createIndex('qa_suite_runs_suite_created_at_id')
        .on('qa_suite_runs')
        .columns(['suite_id', 'created_at', 'id'])
        .execute();
      // The runs to resume at start-up.
      await db.schema.createIndex('qa_suite_runs_status').on('qa_suite_runs').column('status').execute();

      await db.schema
        .createTable('qa_run_cells')
        .addColumn('run_id', 'text', (column) =>
          column.notNull().references('qa_suite_runs.id').onDelete('cascade'),
        )
        .addColumn('case_index', 'integer', (column) => column.notNull())
        .addColumn('target_index', 'integer', (column) => column.notNull())
        .addColumn('case_id', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('latency_ms', 'bigint')
        .addColumn('cost_micros', 'bigint')
        .addColumn('input_tokens', 'bigint')
        .addColumn('output_tokens', 'bigint')
        .addColumn('failed_kinds', json, (column) => column.notNull())
        .addColumn('reason', 'text')
        .addColumn('result', json)
        .addColumn('finished_at', 'bigint')
        .addPrimaryKeyConstraint('qa_run_cells_pk', ['run_id', 'case_index', 'target_index'])
        .addCheckConstraint(
          'qa_run_cells_status',
          sql`status in ('pending', 'running', 'passed', 'failed', 'error', 'cancelled')`,
        )
        .execute();
      // Progress: the cells finished since the last poll.
      await db.schema
        .createIndex('qa_run_cells_run_finished_at')
        .on('qa_run_cells')
        .columns(['run_id', 'finished_at'])
        .execute();
    },
  };
}
