import { toJsonText, type JsonObject } from '../json';
import {
  toSandboxBuild,
  type SandboxBuild,
  type SandboxBuildStatus,
  type SandboxBuildTrigger,
} from '../models/sandbox-build';
import { newestFirstPage } from '../newest-first-page';
import { type Page, type PageRequest } from '../pagination';
import { notFound } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A build that just started. Its id is the sandbox's build id (the API answers it at once). */
export interface NewSandboxBuild {
  readonly id: string;
  readonly tag: string;
  readonly force: boolean;
  readonly trigger: SandboxBuildTrigger;
  readonly actorPrincipalId: string | null;
  readonly actorApiKeyId: string | null;
  /** Set for trigger `session` (the session and its owner); absent means null. */
  readonly sessionId?: string | null;
  readonly sessionOwnerUserId?: string | null;
  readonly startedAt: Date;
}

/** How it ended. */
export interface SandboxBuildOutcome {
  readonly status: Exclude<SandboxBuildStatus, 'running'>;
  readonly imageIdBefore: string | null;
  readonly imageIdAfter: string | null;
  readonly error: string | null;
  readonly events: readonly JsonObject[];
  readonly finishedAt: Date;
}

/** Sandbox image builds (admin data, no owner): started, finished, listed newest first. */
export class SandboxBuildsRepository {
  constructor(private readonly context: RepositoryContext) {}

  async start(build: NewSandboxBuild): Promise<SandboxBuild> {
    const row = await this.context.db
      .insertInto('sandbox_builds')
      .values({
        id: build.id,
        tag: build.tag,
        force: build.force ? 1 : 0,
        trigger: build.trigger,
        actor_principal_id: build.actorPrincipalId,
        actor_api_key_id: build.actorApiKeyId,
        session_id: build.sessionId ?? null,
        session_owner_user_id: build.sessionOwnerUserId ?? null,
        status: 'running',
        image_id_before: null,
        image_id_after: null,
        error: null,
        events: null,
        created_at: build.startedAt.getTime(),
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSandboxBuild(row);
  }

  /** Records the outcome of a running build; `NotFound` when there is no running build with this id. */
  async finish(id: string, outcome: SandboxBuildOutcome): Promise<SandboxBuild> {
    const row = await this.context.db
      .updateTable('sandbox_builds')
      .set({
        status: outcome.status,
        image_id_before: outcome.imageIdBefore,
        image_id_after: outcome.imageIdAfter,
        error: outcome.error,
        events: toJsonText(outcome.events),
        finished_at: outcome.finishedAt.getTime(),
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) throw notFound('sandbox-build');
    return toSandboxBuild(row);
  }

  async get(id: string): Promise<SandboxBuild> {
    const row = await this.context.db
      .selectFrom('sandbox_builds')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('sandbox-build');
    return toSandboxBuild(row);
  }

  /** Builds, newest first. */
  async list(page: PageRequest = {}): Promise<Page<SandboxBuild>> {
    return newestFirstPage(this.context.db.selectFrom('sandbox_builds').selectAll(), page, toSandboxBuild);
  }

  /**
   * Marks builds still `running` that started before `startedBefore` as interrupted: the process
   * that ran them stopped. One SQLite process owns every build; on PostgreSQL other replicas may
   * be building, so the API passes a cut-off older than any build can take.
   */
  async markInterrupted(startedBefore: Date): Promise<number> {
    const result = await this.context.db
      .updateTable('sandbox_builds')
      .set({
        status: 'interrupted',
        error: 'the API stopped before the build ended',
        finished_at: this.context.clock(),
      })
      .where('status', '=', 'running')
      .where('created_at', '<', startedBefore.getTime())
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
