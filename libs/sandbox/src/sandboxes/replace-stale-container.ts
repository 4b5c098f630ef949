import { randomBytes } from 'node:crypto';
import { type EngineClient } from '../engine/engine-client';
import { isSandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { carryOverWorkspace } from './carry-over-workspace';

/** A session container being replaced is renamed to this prefix + a random suffix until it is removed. */
export function retiredNamePrefix(ownerId: string): string {
  return `${ownerId}-retired-`;
}

export interface StaleContainerReplacement {
  readonly containerId: string;
  /** What the model must be told with its next tool result. */
  readonly notice: string;
}

/**
 * Replaces a session's container that runs an old image (the tag moved: a rebuild) by one on the
 * current image, at an idle point of the session (no command of it running). The old container is
 * renamed out of the way, a new one takes the session's name (`createFresh`), `/workspace` is
 * copied across, and the old one is removed. Processes of the old container do not survive; when
 * the copy fails (the old container wedged or gone, the new workspace too small) the new container
 * is used anyway and the notice says what was lost.
 */
export async function replaceStaleContainer(input: {
  readonly engine: EngineClient;
  readonly logger: SandboxLogger;
  readonly ownerId: string;
  readonly sessionId: string;
  readonly name: string;
  readonly staleId: string;
  /** Starts the session's new container under `name` (warm pool or cold). */
  readonly createFresh: () => Promise<string>;
  /** Ids of old containers between rename and removal; the reaper leaves them alone. */
  readonly retiring: Set<string>;
}): Promise<StaleContainerReplacement> {
  const { engine, logger, sessionId, staleId } = input;
  const retiredName = `${retiredNamePrefix(input.ownerId)}${randomBytes(6).toString('hex')}`;
  try {
    await engine.renameContainer(staleId, retiredName);
  } catch (error) {
    if (!isSandboxError(error, 'container-missing')) throw error;
    // Removed behind our back just now: nothing to carry over.
    return { containerId: await input.createFresh(), notice: lostNotice('the old container was removed') };
  }
  input.retiring.add(staleId);
  try {
    let containerId: string;
    try {
      containerId = await input.createFresh();
    } catch (error) {
      // No new container: the session keeps its old one (and its files) until the next idle point.
      await engine.renameContainer(staleId, input.name).catch(() => false);
      throw error;
    }
    let notice = movedNotice;
    try {
      await carryOverWorkspace(engine, staleId, containerId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(`[sandbox] session ${sessionId}: /workspace not carried over to the new image: ${reason}`);
      notice = lostNotice(reason);
    }
    await engine.removeContainer(staleId).catch((error: Error) => {
      logger.warn(`[sandbox] could not remove the old container of session ${sessionId}: ${error.message}`);
    });
    logger.info(`[sandbox] session ${sessionId}: container replaced on the current image`);
    return { containerId, notice };
  } finally {
    input.retiring.delete(staleId);
  }
}

const movedNotice =
  'Note: this session’s sandbox was moved to an updated sandbox image before this call. /workspace was ' +
  'carried over; processes started by earlier commands (servers, background jobs) are no longer running.';

function lostNotice(reason: string): string {
  return (
    'Note: this session’s sandbox was moved to an updated sandbox image before this call, and /workspace ' +
    `could not be carried over (${reason}): files from earlier calls may be missing or incomplete, and ` +
    'processes started by earlier commands are no longer running.'
  );
}
