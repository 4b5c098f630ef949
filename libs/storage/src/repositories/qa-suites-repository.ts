import type { Selectable, Transaction } from 'kysely';
import type { Database, QaSuitesTable } from '../database-schema';
import { newId } from '../ids';
import { toJsonText, type JsonObject } from '../json';
import { toQaSuite, toQaSuiteVersion, type QaSuite, type QaSuiteVersion } from '../models/qa-suite';
import { newestFirstPage } from '../newest-first-page';
import type { Page, PageRequest } from '../pagination';
import { isUniqueViolation, notFound, StorageError, StorageErrorCode } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A new suite: its first version. */
export interface NewQaSuite {
  readonly name: string;
  readonly description: string | null;
  /** The suite definition as validated by the API (kept verbatim). */
  readonly definition: JsonObject;
  readonly caseCount: number;
  readonly targetCount: number;
  readonly createdBy: string;
  readonly note: string | null;
}

/** A new version of an existing suite, edited from `baseVersion`. */
export interface NewQaSuiteVersion extends NewQaSuite {
  readonly suiteId: string;
  /** The version the editor started from; anything but the latest is refused (a stale edit). */
  readonly baseVersion: number;
}

/** A suite with the version a write just stored. */
export interface SavedQaSuite {
  readonly suite: QaSuite;
  readonly version: QaSuiteVersion;
}

/**
 * QA suites and their versions (migration 0018). A version is never changed; a save adds the next
 * one, and only when it was edited from the latest (optimistic locking on `latest_version`), so two
 * editors cannot overwrite each other silently. Suites hold no user's data: no owner scoping.
 */
export class QaSuitesRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Creates a suite at version 1. `Conflict` (qa-suite) when the name is taken. */
  create(input: NewQaSuite): Promise<SavedQaSuite> {
    return this.writeSuiteWithVersion(input, (transaction, now) =>
      transaction
        .insertInto('qa_suites')
        .values({
          id: newId(now),
          name: input.name,
          description: input.description,
          latest_version: 1,
          case_count: input.caseCount,
          target_count: input.targetCount,
          created_by: input.createdBy,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /**
   * Saves the next version. `Conflict` (qa-suite-version) when `baseVersion` is not the latest
   * (someone saved in between); `Conflict` (qa-suite) when the new name is another suite's;
   * `NotFound` when there is no such suite.
   */
  saveVersion(input: NewQaSuiteVersion): Promise<SavedQaSuite> {
    return this.writeSuiteWithVersion(input, async (transaction, now) => {
      // The conditional update is the lock: of two saves from one base, the second matches nothing.
      const suite = await transaction
        .updateTable('qa_suites')
        .set({
          name: input.name,
          description: input.description,
          latest_version: input.baseVersion + 1,
          case_count: input.caseCount,
          target_count: input.targetCount,
          updated_at: now,
        })
        .where('id', '=', input.suiteId)
        .where('latest_version', '=', input.baseVersion)
        .returningAll()
        .executeTakeFirst();
      if (suite === undefined) {
        const current = await transaction
          .selectFrom('qa_suites')
          .select('latest_version')
          .where('id', '=', input.suiteId)
          .executeTakeFirst();
        if (current === undefined) throw notFound('qa-suite');
        throw new StorageError(
          StorageErrorCode.Conflict,
          'qa-suite-version',
          `The suite was saved since version ${input.baseVersion} (it is at version ${current.latest_version}); reload it and save again`,
        );
      }
      return suite;
    });
  }

  /** One suite; `NotFound` when there is none with this id. */
  async get(id: string): Promise<QaSuite> {
    const row = await this.context.db
      .selectFrom('qa_suites')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('qa-suite');
    return toQaSuite(row);
  }

  /** The suite with exactly this name, if any. */
  async findByName(name: string): Promise<QaSuite | undefined> {
    const row = await this.context.db
      .selectFrom('qa_suites')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined ? undefined : toQaSuite(row);
  }

  /** One version of a suite; `NotFound` (qa-suite-version) when the suite or the version is missing. */
  async version(suiteId: string, version: number): Promise<QaSuiteVersion> {
    const row = await this.context.db
      .selectFrom('qa_suite_versions')
      .selectAll()
      .where('suite_id', '=', suiteId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (row === undefined) throw notFound('qa-suite-version');
    return toQaSuiteVersion(row);
  }

  /** Every version of a suite, newest first (empty when there is no such suite). */
  async versions(suiteId: string): Promise<QaSuiteVersion[]> {
    const rows = await this.context.db
      .selectFrom('qa_suite_versions')
      .selectAll()
      .where('suite_id', '=', suiteId)
      .orderBy('version', 'desc')
      .execute();
    return rows.map(toQaSuiteVersion);
  }

  /** Suites, newest first. */
  async list(page: PageRequest = {}): Promise<Page<QaSuite>> {
    return newestFirstPage(this.context.db.selectFrom('qa_suites').selectAll(), page, toQaSuite);
  }

  /**
   * One transaction: `writeSuite` inserts or updates the suite row, then its `latest_version` is
   * stored with the definition. A unique violation (the name) becomes `Conflict` (qa-suite).
   */
  private async writeSuiteWithVersion(
    input: NewQaSuite,
    writeSuite: (transaction: Transaction<Database>, now: number) => Promise<Selectable<QaSuitesTable>>,
  ): Promise<SavedQaSuite> {
    const now = this.context.clock();
    try {
      return await this.context.db.transaction().execute(async (transaction) => {
        const suite = await writeSuite(transaction, now);
        const version = await transaction
          .insertInto('qa_suite_versions')
          .values({
            suite_id: suite.id,
            version: suite.latest_version,
            definition: toJsonText(input.definition),
            note: input.note,
            created_by: input.createdBy,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { suite: toQaSuite(suite), version: toQaSuiteVersion(version) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(input.name, error);
      throw error;
    }
  }
}

function nameTaken(name: string, cause: unknown): StorageError {
  return new StorageError(StorageErrorCode.Conflict, 'qa-suite', `A suite named "${name}" already exists`, {
    cause,
  });
}
