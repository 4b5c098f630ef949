import { newId } from '../ids';
import { toJsonText, type JsonObject } from '../json';
import { toStructuredOutputRun, type StructuredOutputRun } from '../models/structured-output-run';
import { type Page, type PageRequest } from '../pagination';
import { notFound } from '../storage-error';
import { newestFirstPage } from '../newest-first-page';
import type { RepositoryContext } from './repository-context';

/** A finished run to keep. Its times are the caller's: a run is stored once every target answered. */
export interface NewStructuredOutputRun {
  readonly actorPrincipalId: string;
  readonly name: string;
  readonly schema: JsonObject;
  readonly prompt: string;
  readonly settings: JsonObject;
  readonly targets: readonly JsonObject[];
  readonly results: readonly JsonObject[];
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

/**
 * Structured-output lab runs. They hold no user data (only what admins and viewers typed), so
 * there is no owner scoping: everyone allowed into the lab sees every run.
 */
export class StructuredOutputRunsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Stores a finished run. */
  async create(run: NewStructuredOutputRun): Promise<StructuredOutputRun> {
    const createdAt = run.startedAt.getTime();
    const row = await this.context.db
      .insertInto('structured_output_runs')
      .values({
        id: newId(createdAt),
        actor_principal_id: run.actorPrincipalId,
        name: run.name,
        schema: toJsonText(run.schema),
        prompt: run.prompt,
        // See `toStructuredOutputRun`: the call settings travel with the targets.
        targets: toJsonText({ settings: run.settings, targets: run.targets }),
        results: toJsonText(run.results),
        created_at: createdAt,
        finished_at: run.finishedAt.getTime(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toStructuredOutputRun(row);
  }

  /** One run; `NotFound` when there is none with this id. */
  async get(id: string): Promise<StructuredOutputRun> {
    const row = await this.context.db
      .selectFrom('structured_output_runs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('structured-output-run');
    return toStructuredOutputRun(row);
  }

  /** Runs, newest first. */
  async list(page: PageRequest = {}): Promise<Page<StructuredOutputRun>> {
    const query = this.context.db.selectFrom('structured_output_runs').selectAll();
    return newestFirstPage(query, page, toStructuredOutputRun);
  }
}
