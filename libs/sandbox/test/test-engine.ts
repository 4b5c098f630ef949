import { mkdtempSync } from 'node:fs';
import { inject } from 'vitest';
import {
  EngineClient,
  SandboxService,
  buildOfflineBaseImage,
  isSandboxError,
  silentLogger,
  startPrivateEngine,
  type PrivateEngine,
  type SandboxConfigInput,
  type SandboxError,
  type SandboxServiceOptions,
} from '../src/index';
import { waitFor } from './wait-for';

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

/** The sandbox error a call failed with; any other failure (or none) fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    if (isSandboxError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/**
 * Waits until `path` exists in the container: a command that creates it has got that far. Tests wait
 * for this instead of sleeping, since an exec's start (and the command's first line) can take
 * seconds on a loaded machine. Up to 1200 probes (a minute on a quiet machine); on the deadline the
 * error shows the container's state.
 */
export async function untilPathExists(
  engine: EngineClient,
  containerId: string,
  path: string,
): Promise<void> {
  await waitFor(
    async () => ((await engine.statPath(containerId, path)) ? true : undefined),
    `${path} to exist in container ${containerId}`,
    {
      attempts: 1200,
      intervalMs: 50,
      state: async () => (await engine.inspectContainer(containerId))?.State ?? 'no such container',
    },
  );
}

/** An engine a test may stop and start again, with a service on it and the base image built. */
export interface StoppableEngine {
  /** The running daemon; `restart()` replaces it. */
  engine: PrivateEngine;
  readonly service: SandboxService;
  /** Starts the daemon again on the same data folder, as an operator's daemon restart would. */
  restart(): Promise<void>;
  /** Stops the daemon (if running) and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Stopping the shared engine would break the other files, so a test that stops the engine gets a
 * daemon of its own (`name` keeps its folder, tag and owner apart from every other file's).
 */
export async function startStoppableEngine(
  name: string,
  config: Partial<SandboxConfigInput> = {},
): Promise<StoppableEngine> {
  const directory = mkdtempSync(`/tmp/agentdesk-${name}-`);
  const quiet = { directory, log: () => undefined };
  const engine = await startPrivateEngine(quiet);
  await buildOfflineBaseImage(engine.engine, { reference: testBaseImage });
  const service = new SandboxService(
    {
      tag: `agentdesk-${name}:latest`,
      baseImage: testBaseImage,
      agentdeskVersion: '1.0.0-test',
      ownerId: `test-${name}`,
      warmPoolSize: 0,
      reaperIntervalMs: 0,
      ...config,
    },
    { engine: new EngineClient({ dockerHost: engine.dockerHost }), logger: silentLogger },
  );
  await service.ensureSandboxImage();
  const stoppable: StoppableEngine = {
    engine,
    service,
    async restart() {
      stoppable.engine = await startPrivateEngine(quiet);
    },
    async dispose() {
      // A case that failed midway may have left the daemon stopped: closing then has nothing to reach.
      await service.close().catch(() => undefined);
      await stoppable.engine.stop({ removeDirectory: true });
    },
  };
  return stoppable;
}
