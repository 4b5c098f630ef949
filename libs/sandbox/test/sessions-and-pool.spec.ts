import { InMemoryToolResultStore } from '@agentdesk/compressor';
import { ToolRegistry } from '@agentdesk/agent-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerLabels, createSandboxTools } from '../src/index';
import { dockerCli } from './docker-cli';
import { removeEverything, testEngine, testService, untilPathExists } from './test-engine';

const engine = testEngine();

describe('session containers', () => {
  const service = testService('sessions');
  const tools = new ToolRegistry(createSandboxTools(service));
  beforeAll(() => service.ensureSandboxImage());
  afterAll(() => removeEverything(service));

  it('gives each session one container, labelled with the session and owner, even under concurrent first use', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => service.acquireContainer('one-container')));
    expect(new Set(ids).size).toBe(1);
    const sessionContainers = (await service.listContainers()).filter(
      (container) => container.sessionId === 'one-container',
    );
    expect(sessionContainers).toHaveLength(1);
    expect(sessionContainers[0]).toMatchObject({
      role: 'session',
      ownerId: 'test-sessions',
      state: 'running',
    });
  });

  it('removes the container when the session is deleted, and starts a fresh one on the next use', async () => {
    const sandbox = service.forSession('deleted');
    await sandbox.writeFile('note.txt', 'old');
    const first = await service.acquireContainer('deleted');
    await service.removeSession('deleted');
    expect(await engine.inspectContainer(first)).toBeUndefined();
    expect((await sandbox.exec({ command: 'ls' })).stdout.text).toBe('');
  });

  it('recovers when the container was removed by hand between two commands', async () => {
    const sandbox = service.forSession('removed-by-hand');
    await sandbox.exec({ command: 'true' });
    await dockerCli('rm', '-f', `test-sessions-session-removed-by-hand`);
    expect((await sandbox.exec({ command: 'echo back' })).stdout.text).toBe('back\n');
  });

  it.each([
    ['stopped', ['stop', '-t', '1'], /had stopped \(exited, exit code \d+;/],
    ['killed', ['kill'], /had stopped \(exited, exit code 137;/],
    ['removed', ['rm', '-f'], /was removed since its last use/],
  ])(
    'gives a session whose container was %s behind its back a fresh one, and its next tool result says the workspace was lost',
    async (what, command, notice) => {
      const sessionId = `${what}-behind-its-back`;
      const call = (argumentsValue: unknown) =>
        tools.execute('run_command', JSON.stringify(argumentsValue), {
          ownerUserId: 'u1',
          sessionId,
          toolResults: new InMemoryToolResultStore(),
          signal: new AbortController().signal,
        });
      expect((await call({ command: 'echo kept > a.txt' })).content).toMatch(/^exit code: 0/);
      await dockerCli(...command, `test-sessions-session-${sessionId}`);

      const result = await call({ command: 'ls; echo fresh' });
      expect(result.isError).toBe(false);
      expect(result.content).toMatch(notice);
      expect(result.content).toContain('/workspace starts empty');
      expect(result.content).toContain('--- stdout ---\nfresh\n');
      expect((await call({ command: 'true' })).content).toMatch(/^exit code: 0/);
    },
  );

  it('reaps idle session containers, but not busy ones', async () => {
    await service.forSession('idle').exec({ command: 'true' });
    // Busy until the test says `go`: running (its container there) for the whole reap, however slow.
    const busy = service
      .forSession('busy')
      .exec({ command: 'touch running; while [ ! -e go ]; do sleep 0.1; done' });
    await untilPathExists(engine, await service.acquireContainer('busy'), '/workspace/running');
    const reaped = await service.reapIdle(Date.now() + service.config.idleTimeoutMs + 1);
    expect(reaped).toContain('idle');
    expect(reaped).not.toContain('busy');
    await service.forSession('busy').writeFile('go', '');
    expect((await busy).exitCode).toBe(0);
    expect(await engine.inspectContainer('test-sessions-session-idle')).toBeUndefined();
  });

  it('reconciles: removes our containers of deleted sessions and never touches anyone else', async () => {
    await service.acquireContainer('alive');
    await service.acquireContainer('gone');
    // A stranger's container that even looks like ours by name, and one with another owner label.
    const { imageId } = await service.ensureSandboxImage();
    const stranger = await engine.createContainer({
      name: 'test-sessions-session-stranger',
      Image: imageId,
      Cmd: ['sleep', 'infinity'],
    });
    const otherOwner = await engine.createContainer({
      name: 'other-owner-session-gone',
      Image: imageId,
      Cmd: ['sleep', 'infinity'],
      Labels: { [containerLabels.owner]: 'someone-else', [containerLabels.session]: 'gone' },
    });
    try {
      const removed = await service.reconcile(async (ids) => new Set(ids.filter((id) => id !== 'gone')));
      expect(removed).toEqual(['gone']);
      expect(await engine.inspectContainer('test-sessions-session-gone')).toBeUndefined();
      expect(await engine.inspectContainer('test-sessions-session-alive')).toBeDefined();
      expect(await engine.inspectContainer(stranger)).toBeDefined();
      expect(await engine.inspectContainer(otherOwner)).toBeDefined();
      await expect(service.removeContainer(stranger)).rejects.toMatchObject({ code: 'container-missing' });
      expect(await engine.inspectContainer(stranger)).toBeDefined();
    } finally {
      await engine.removeContainer(stranger);
      await engine.removeContainer(otherOwner);
    }
  });

  it('refuses a session id that is not a safe container name', async () => {
    for (const bad of ['', '../x', 'a b', 'x/y', '-leading-dash']) {
      await expect(service.forSession(bad).exec({ command: 'true' })).rejects.toMatchObject({
        code: 'invalid-input',
      });
    }
  });
});

describe('warm pool', () => {
  const service = testService('pool', { warmPoolSize: 2 });
  afterAll(() => removeEverything(service));

  it('hands out a ready container, refills in the background, and never hands out an old-image container', async () => {
    await service.start();
    await service.fillWarmPool();
    expect(service.warmPoolSize()).toBe(2);
    const pooled = (await service.listContainers()).filter((container) => container.role === 'pool');
    expect(pooled).toHaveLength(2);

    const assigned = await service.acquireContainer('from-pool');
    expect(pooled.map((container) => container.id)).toContain(assigned);
    expect((await engine.inspectContainer(assigned))?.Name).toBe('/test-pool-session-from-pool');
    expect((await service.forSession('from-pool').exec({ command: 'id -u' })).stdout.text).toBe('1000\n');
    await service.fillWarmPool();
    expect(service.warmPoolSize()).toBe(2);

    // A rebuild moves the tag: a container taken right after runs the new image, never the old one.
    const rebuilt = await service.ensureSandboxImage({ force: true });
    const next = await service.acquireContainer('after-rebuild');
    expect((await engine.inspectContainer(next))?.Image).toBe(rebuilt.imageId);
    await service.fillWarmPool();
    const pool = (await service.listContainers()).filter((container) => container.role === 'pool');
    expect(pool.map((container) => container.imageId)).toEqual(pool.map(() => rebuilt.imageId));
    expect(pool.length).toBe(2);
  });
});
