import { type EngineClient } from '../engine/engine-client';
import { isSandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { containerLabels } from '../sandboxes/container-labels';

/** The name of the container that keeps the sandbox image (and its tag) alive through prunes. */
export const IMAGE_PIN_NAME = 'sandbox-image-pin';
/** Same for the base image the sandbox is built FROM: a prune removes it otherwise. */
export const BASE_IMAGE_PIN_NAME = 'sandbox-base-image-pin';

export type PinOutcome = 'pinned' | 'already-pinned' | 'no-image' | 'failed';

/** What `ensureImagePin` did — it reports instead of throwing. */
export interface PinReport {
  readonly outcome: PinOutcome;
  readonly pinName: string;
  readonly reference: string;
  /** The image id the pin runs on after this call (when known). */
  readonly imageId?: string;
  /** Why it failed (engine text), for logs and the console. */
  readonly error?: string;
}

export interface PinTarget {
  readonly pinName: string;
  /** The tag to pin (`agentdesk-sandbox:latest`). */
  readonly reference: string;
  readonly ownerId: string;
}

/**
 * Keeps a tiny container running off the image `reference` currently names, because a running
 * container's image — and its tag — survive `docker image prune -a` / `docker system prune -a`.
 *
 * The pin is re-created when it is missing, not running (a pin stopped through the engine stays
 * stopped: `restart: always` does not undo that), or running an image id other than the tag's
 * current one — a rebuild moves the tag and would leave the new image unpinned.
 *
 * Best-effort: never throws, never blocks; it logs and reports what it did.
 */
export async function ensurePinContainer(
  engine: EngineClient,
  target: PinTarget,
  logger: SandboxLogger,
): Promise<PinReport> {
  const { pinName, reference } = target;
  try {
    const image = await engine.inspectImage(reference);
    if (!image) return { outcome: 'no-image', pinName, reference };
    const wantedImageId = image.Id;
    if (await isPinnedOn(engine, pinName, wantedImageId)) {
      return { outcome: 'already-pinned', pinName, reference, imageId: wantedImageId };
    }
    await engine.removeContainer(pinName);
    try {
      const id = await engine.createContainer({
        name: pinName,
        Image: reference,
        Entrypoint: ['sleep'],
        Cmd: ['infinity'],
        Labels: { [containerLabels.owner]: target.ownerId, [containerLabels.role]: 'pin' },
        HostConfig: {
          RestartPolicy: { Name: 'always' },
          NetworkMode: 'none',
          // An init makes the pin stop at once instead of after the 10 s grace (sleep ignores SIGTERM as PID 1).
          Init: true,
          LogConfig: { Type: 'none', Config: {} },
        },
      });
      await engine.startContainer(id);
    } catch (error) {
      // Another process re-created it in between (409 on the name): fine if it runs on our image.
      if (await isPinnedOn(engine, pinName, wantedImageId)) {
        return { outcome: 'already-pinned', pinName, reference, imageId: wantedImageId };
      }
      throw error;
    }
    logger.info(`[sandbox] pinned image ${reference} (${shortId(wantedImageId)}) via ${pinName}`);
    return { outcome: 'pinned', pinName, reference, imageId: wantedImageId };
  } catch (error) {
    const message = isSandboxError(error) || error instanceof Error ? error.message : String(error);
    logger.warn(`[sandbox] image pin ${pinName} for ${reference} failed: ${message}`);
    return { outcome: 'failed', pinName, reference, error: message };
  }
}

async function isPinnedOn(engine: EngineClient, pinName: string, imageId: string): Promise<boolean> {
  const pin = await engine.inspectContainer(pinName);
  return pin !== undefined && pin.State.Running && pin.Image === imageId;
}

export function shortId(imageId: string): string {
  return imageId.replace(/^sha256:/, '').slice(0, 12);
}

/** The seed's `_ensure_image_pin(tag)`: the pin named `sandbox-image-pin` (or `pinName`) on `tag`. */
export function ensureImagePin(
  engine: EngineClient,
  tag: string,
  options: { logger: SandboxLogger; ownerId?: string; pinName?: string },
): Promise<PinReport> {
  return ensurePinContainer(
    engine,
    { pinName: options.pinName ?? IMAGE_PIN_NAME, reference: tag, ownerId: options.ownerId ?? 'agentdesk' },
    options.logger,
  );
}
