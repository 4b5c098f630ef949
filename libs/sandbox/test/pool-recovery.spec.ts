import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateEngine, type SandboxContainerInfo, type SandboxService } from '../src/index';
import { dockerCli } from './docker-cli';
import { removeEverything, testService } from './test-engine';

async function poolContainers(service: SandboxService): Promise<SandboxContainerInfo[]> {
  return (await service.listContainers()).filter((container) => container.role === 'pool');
}

describe('the warm pool after changes behind its back', () => {
  const service = testService('pool-recovery', { warmPoolSize: 2 });
  beforeAll(async () => {
    await service.start();
    await service.fillWarmPool();
  });
  afterAll(() => removeEverything(service));

  it('gives a new session a working sandbox after its containers were removed with docker rm -f', async () => {
    const removed = await poolContainers(service);
    expect(removed).toHaveLength(2);
    await dockerCli('rm', '-f', ...removed.map((container) => container.id));

    const sandbox = service.forSession('after-rm');
    expect((await sandbox.exec({ command: 'echo first' })).stdout.text).toBe('first\n');
    expect(removed.map((container) => container.id)).not.toContain(
      await service.acquireContainer('after-rm'),
    );
    await service.fillWarmPool();
    expect((await poolContainers(service)).filter((container) => container.state === 'running')).toHaveLength(
      2,
    );
  });

  it('gives a new session a working sandbox after its containers were stopped (Exited, as an engine restart leaves them)', async () => {
    await service.fillWarmPool();
    const stopped = await poolContainers(service);
    expect(stopped).toHaveLength(2);
    await dockerCli('stop', '-t', '1', ...stopped.map((container) => container.id));

    const sandbox = service.forSession('after-stop');
    expect((await sandbox.exec({ command: 'echo first' })).stdout.text).toBe('first\n');
    expect((await sandbox.exec({ command: 'echo second' })).stdout.text).toBe('second\n');
    expect(stopped.map((container) => container.id)).not.toContain(
      await service.acquireContainer('after-stop'),
    );
    // The stopped ones were discarded, not left behind.
    await service.fillWarmPool();
    const pool = await poolContainers(service);
    expect(pool.map((container) => container.state)).toEqual(['running', 'running']);
  });
});

describe('adopting the warm pool of an earlier run', () => {
  // Same name: same tag, owner and pins — a later process of the same installation.
  const earlier = testService('pool-adopt', { warmPoolSize: 4 });
  afterAll(() => removeEverything(earlier));

  it('keeps at most its configured size of the leftovers, and none with a pool of 0', async () => {
    await earlier.start();
    await earlier.fillWarmPool();
    await earlier.close(); // the process ends; its 4 pool containers stay on the engine
    expect(await poolContainers(earlier)).toHaveLength(4);

    const smaller = testService('pool-adopt', { warmPoolSize: 2 });
    await smaller.start();
    await smaller.fillWarmPool();
    expect(smaller.warmPoolSize()).toBe(2);
    expect(await poolContainers(smaller)).toHaveLength(2);
    await smaller.close();

    const none = testService('pool-adopt', { warmPoolSize: 0 });
    await none.start();
    expect(none.warmPoolSize()).toBe(0);
    expect(await poolContainers(none)).toEqual([]);
    await none.close();
  });
});

describe('the warm pool across a real engine restart', () => {
  const directory = mkdtempSync('/tmp/agentdesk-restart-');

  it('hands out no Exited container to the running service, and a new service adopts none of them', async () => {
    let engine = await startPrivateEngine({ directory, log: () => undefined });
    const config = { warmPoolSize: 2 };
    const service = testService('pool-restart', config, { engine: engine.engine });
    try {
      await service.start();
      await service.fillWarmPool();
      const before = await poolContainers(service);
      expect(before).toHaveLength(2);

      await engine.stop();
      engine = await startPrivateEngine({ directory, log: () => undefined });
      const after = await poolContainers(service);
      expect(after.map((container) => container.state)).toEqual(['exited', 'exited']);

      // The service that lived through the restart: its first command works on the first try.
      expect((await service.forSession('survivor').exec({ command: 'echo ok' })).stdout.text).toBe('ok\n');
      await service.close();

      // A new process of the same installation after the restart.
      const restarted = testService('pool-restart', config, { engine: engine.engine });
      await restarted.start();
      await restarted.fillWarmPool();
      const pool = await poolContainers(restarted);
      expect(pool.map((container) => container.state)).toEqual(['running', 'running']);
      for (const old of before) expect(await engine.engine.inspectContainer(old.id)).toBeUndefined();
      expect((await restarted.forSession('new').exec({ command: 'echo ok' })).stdout.text).toBe('ok\n');
      await restarted.close();
    } finally {
      await engine.stop({ removeDirectory: true });
    }
  });
});
