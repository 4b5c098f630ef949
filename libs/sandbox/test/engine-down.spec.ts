import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStoppableEngine, type StoppableEngine } from './test-engine';

let stoppable: StoppableEngine;

beforeAll(async () => {
  stoppable = await startStoppableEngine('down');
});

afterAll(async () => {
  await stoppable?.dispose();
});

it('answers engine-unavailable while the engine is stopped, and recovers when it is back', async () => {
  const { service } = stoppable;
  const sandbox = service.forSession('survivor');
  await sandbox.writeFile('a.txt', 'x');
  await stoppable.engine.stop();

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

  await stoppable.restart();
  // The pins come back by themselves (restart: always); session containers were stopped with the
  // daemon and are replaced on the next use.
  expect(await service.ensureSandboxImage()).toMatchObject({ status: 'current' });
  expect((await sandbox.exec({ command: 'echo back' })).stdout.text).toBe('back\n');
  expect((await service.imageStatus()).pin.pinned).toBe(true);
});
