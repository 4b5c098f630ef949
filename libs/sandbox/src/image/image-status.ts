import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { imageLabels } from './build-context';
import { type SandboxImage } from './sandbox-image';

export interface PinStatus {
  readonly name: string;
  /** `missing` when there is no pin container. */
  readonly state: string;
  readonly imageId?: string;
  /** Running, and on the image id the tag names right now. */
  readonly pinned: boolean;
}

/** What the admin image page shows. Throws `engine-unavailable` when the engine is down. */
export interface ImageStatus {
  readonly tag: string;
  readonly present: boolean;
  readonly imageId?: string;
  readonly versionLabel?: string;
  readonly runningVersion: string;
  readonly contentHashLabel?: string;
  readonly expectedContentHash: string;
  /** Present with this version and content hash: no rebuild needed. */
  readonly current: boolean;
  readonly sizeBytes?: number;
  readonly createdAt?: string;
  readonly builtAt?: string;
  readonly pin: PinStatus;
  readonly baseImage: {
    readonly reference: string;
    readonly present: boolean;
    readonly imageId?: string;
    readonly pin: PinStatus;
  };
  readonly buildInProgress?: string;
}

export async function readImageStatus(
  engine: EngineClient,
  config: SandboxConfig,
  image: SandboxImage,
): Promise<ImageStatus> {
  const [tagged, base, pin, basePin] = await Promise.all([
    engine.inspectImage(config.tag),
    engine.inspectImage(config.baseImage),
    engine.inspectContainer(config.pinName),
    engine.inspectContainer(config.basePinName),
  ]);
  const labels = tagged?.Config?.Labels ?? {};
  const running = image.builds().find((build) => build.status === 'running');
  const pinStatus = (name: string, container: typeof pin, wanted: string | undefined): PinStatus => ({
    name,
    state: container?.State.Status ?? 'missing',
    ...(container ? { imageId: container.Image } : {}),
    pinned: Boolean(container?.State.Running && wanted && container.Image === wanted),
  });
  return {
    tag: config.tag,
    present: tagged !== undefined,
    ...(tagged
      ? {
          imageId: tagged.Id,
          sizeBytes: tagged.Size,
          createdAt: tagged.Created,
          ...(labels[imageLabels.version] ? { versionLabel: labels[imageLabels.version] } : {}),
          ...(labels[imageLabels.contentHash] ? { contentHashLabel: labels[imageLabels.contentHash] } : {}),
          ...(labels[imageLabels.builtAt] ? { builtAt: labels[imageLabels.builtAt] } : {}),
        }
      : {}),
    runningVersion: config.agentdeskVersion,
    expectedContentHash: image.contentHash,
    current: image.isCurrent(tagged),
    pin: pinStatus(config.pinName, pin, tagged?.Id),
    baseImage: {
      reference: config.baseImage,
      present: base !== undefined,
      ...(base ? { imageId: base.Id } : {}),
      pin: pinStatus(config.basePinName, basePin, base?.Id),
    },
    ...(running ? { buildInProgress: running.id } : {}),
  };
}
