import type { Selectable } from 'kysely';
import type { QaSuitesTable, QaSuiteVersionsTable } from '../database-schema';
import { fromJsonText, type JsonObject } from '../json';

/**
 * A QA suite (issue 21): a named, versioned set of cases run against several models. The row
 * carries what listings show (name, latest version, counts); each version's definition is kept
 * whole in {@link QaSuiteVersion}. Suites hold no user's data, so there is no owner scoping.
 */
export interface QaSuite {
  readonly id: string;
  /** Unique among suites. */
  readonly name: string;
  readonly description: string | null;
  /** The newest version's number (versions count up from 1). */
  readonly latestVersion: number;
  /** Cases and targets of the latest version. */
  readonly caseCount: number;
  readonly targetCount: number;
  /** The principal who created the suite. */
  readonly createdBy: string;
  readonly createdAt: Date;
  /** When the latest version was saved. */
  readonly updatedAt: Date;
}

/** One saved version of a suite: its definition as saved (the API owns its shape), never changed. */
export interface QaSuiteVersion {
  readonly suiteId: string;
  readonly version: number;
  readonly definition: JsonObject;
  /** What changed from the previous version, as its author wrote it. */
  readonly note: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
}

/** Maps a `qa_suites` row. */
export function toQaSuite(row: Selectable<QaSuitesTable>): QaSuite {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    latestVersion: row.latest_version,
    caseCount: row.case_count,
    targetCount: row.target_count,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Maps a `qa_suite_versions` row. */
export function toQaSuiteVersion(row: Selectable<QaSuiteVersionsTable>): QaSuiteVersion {
  return {
    suiteId: row.suite_id,
    version: row.version,
    definition: fromJsonText<JsonObject>(row.definition),
    note: row.note,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
  };
}
