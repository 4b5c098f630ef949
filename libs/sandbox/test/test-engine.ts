import { inject } from 'vitest';
import {
  EngineClient,
  SandboxService,
  buildOfflineBaseImage,
  silentLogger,
  type SandboxConfigInput,
  type SandboxServiceOptions,
} from '../src/index';

/** The offline base every test builds FROM (made once by the global setup). */
export const testBaseImage = 'agentdesk-test-base:local';

export function testEngine(): EngineClient {
  return new EngineClient({ dockerHost: inject('dockerHost') });
}

/**
 * A service with names of its own (tag, pins, owner), so files and cases never share state on
 * the one engine. Small limits keep containment tests fast.
 */
export function testService(
  name: string,
  config: Partial<SandboxConfigInput> = {},
  options: SandboxServiceOptions = {},
): SandboxService {
  return new SandboxService(
    {
      tag: `agentdesk-test-${name}:latest`,
      baseImage: testBaseImage,
      agentdeskVersion: '1.0.0-test',
      ownerId: `test-${name}`,
      pinName: `${name}-image-pin`,
      basePinName: `${name}-base-pin`,
      warmPoolSize: 0,
      reaperIntervalMs: 0,
      limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 8 * 1024 * 1024 },
      ...config,
    },
    {
      engine: testEngine(),
      logger: silentLogger,
      restoreBaseImage: (engine, reference) =>
        buildOfflineBaseImage(engine, { reference }).then(() => undefined),
      ...options,
    },
  );
}

/** Removes everything a test service created: its containers (sessions, pool), its pins and its image. */
export async function removeEverything(service: SandboxService): Promise<void> {
  await service.close({ removePool: true });
  for (const container of await service.listContainers()) await service.engine.removeContainer(container.id);
  // The pins are not in the list (they are managed with the image, not as containers).
  for (const pin of [service.config.pinName, service.config.basePinName])
    await service.engine.removeContainer(pin);
  await service.engine.removeImage(service.config.tag, true);
}
