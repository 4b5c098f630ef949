import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildOfflineBaseImage,
  EngineClient,
  SandboxService,
  silentLogger,
  startPrivateEngine,
  type PrivateEngine,
} from '../src/index';
import { testBaseImage } from './test-engine';

// Stopping the shared engine would break the other files, so this one stops an engine of its own
// (same data folder across the restart, as an operator's daemon restart would).
const directory = mkdtempSync('/tmp/agentdesk-down-');
let privateEngine: PrivateEngine;
let service: SandboxService;

beforeAll(async () => {
  privateEngine = await startPrivateEngine({ directory, log: () => undefined });
  await buildOfflineBaseImage(privateEngine.engine, { reference: testBaseImage });
  service = new SandboxService(
    {
      tag: 'agentdesk-down:latest',
      baseImage: testBaseImage,
      agentdeskVersion: '1.0.0-test',
      ownerId: 'test-down',
      warmPoolSize: 0,
      reaperIntervalMs: 0,
    },
    { engine: new EngineClient({ dockerHost: privateEngine.dockerHost }), logger: silentLogger },
  );
  await service.ensureSandboxImage();
});

afterAll(async () => {
  await privateEngine?.stop({ removeDirectory: true });
});

it('answers engine-unavailable while the engine is stopped, and recovers when it is back', async () => {
  const sandbox = service.forSession('survivor');
  await sandbox.writeFile('a.txt', 'x');
  await privateEngine.stop();

  await expect(sandbox.exec({ command: 'true' })).rejects.toMatchObject({ code: 'engine-unavailable' });
  await expect(sandbox.readFile('a.txt')).rejects.toMatchObject({ code: 'engine-unavailable' });
  await expect(service.imageStatus()).rejects.toMatchObject({
    code: 'engine-unavailable',
    message: expect.stringContaining('Docker engine unreachable'),
  });
  await expect(service.ensureSandboxImage()).rejects.toMatchObject({ code: 'engine-unavailable' });
  await expect(service.listContainers()).rejects.toMatchObject({ code: 'engine-unavailable' });
  expect(await service.repin()).toMatchObject({
    outcome: 'failed',
    error: expect.stringContaining('unreachable'),
  });

  privateEngine = await startPrivateEngine({ directory, log: () => undefined });
  // The pins come back by themselves (restart: always); session containers were stopped with the
  // daemon and are replaced on the next use.
  expect(await service.ensureSandboxImage()).toMatchObject({ status: 'current' });
  expect((await sandbox.exec({ command: 'echo back' })).stdout.text).toBe('back\n');
  expect((await service.imageStatus()).pin.pinned).toBe(true);
});
