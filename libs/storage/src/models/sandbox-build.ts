import type { Selectable } from 'kysely';
import type { SandboxBuildsTable } from '../database-schema';
import { fromNullableJsonText, type JsonObject } from '../json';

/** How a sandbox image build ended; `interrupted` when the process running it stopped first. */
export type SandboxBuildStatus = SandboxBuildsTable['status'];

/** Why a build ran: an admin asked, the API started, or a session's sandbox needed the missing image. */
export type SandboxBuildTrigger = SandboxBuildsTable['trigger'];

/** One ensure/rebuild of the sandbox image, as the admin history shows it. */
export interface SandboxBuild {
  readonly id: string;
  readonly tag: string;
  readonly force: boolean;
  readonly trigger: SandboxBuildTrigger;
  /** Who asked; null for the start-up ensure and session builds. */
  readonly actorPrincipalId: string | null;
  readonly actorApiKeyId: string | null;
  /** The session whose sandbox started the build (trigger `session`), else null. */
  readonly sessionId: string | null;
  /** That session's owner (null when unknown, e.g. the session was already gone). */
  readonly sessionOwnerUserId: string | null;
  readonly status: SandboxBuildStatus;
  readonly imageIdBefore: string | null;
  readonly imageIdAfter: string | null;
  readonly error: string | null;
  /** The build log; null while the build runs (the running process holds it). */
  readonly events: readonly JsonObject[] | null;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
}

/** Maps a `sandbox_builds` row. */
export function toSandboxBuild(row: Selectable<SandboxBuildsTable>): SandboxBuild {
  return {
    id: row.id,
    tag: row.tag,
    force: row.force === 1,
    trigger: row.trigger,
    actorPrincipalId: row.actor_principal_id,
    actorApiKeyId: row.actor_api_key_id,
    sessionId: row.session_id,
    sessionOwnerUserId: row.session_owner_user_id,
    status: row.status,
    imageIdBefore: row.image_id_before,
    imageIdAfter: row.image_id_after,
    error: row.error,
    events: fromNullableJsonText<JsonObject[]>(row.events),
    startedAt: new Date(row.created_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}
