import { InMemoryToolResultStore } from '@agentdesk/compressor';
import { ToolRegistry, type ToolContext } from '@agentdesk/agent-tools';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSandboxTools, type SandboxContainerInfo, type SandboxService } from '../src/index';
import { removeEverything, testEngine, testService } from './test-engine';

const engine = testEngine();

function toolsOf(service: SandboxService) {
  const registry = new ToolRegistry(createSandboxTools(service));
  const context = (sessionId: string): ToolContext => ({
    ownerUserId: 'u1',
    sessionId,
    toolResults: new InMemoryToolResultStore(),
    signal: new AbortController().signal,
  });
  return (sessionId: string, name: string, argumentsValue: unknown) =>
    registry.execute(name, JSON.stringify(argumentsValue), context(sessionId));
}

async function byRole(service: SandboxService, role: SandboxContainerInfo['role']) {
  return (await service.listContainers()).filter((container) => container.role === role);
}

describe('containers on an old image after a rebuild', () => {
  const service = testService('stale', { warmPoolSize: 2 });
  const call = toolsOf(service);
  afterAll(() => removeEverything(service));

  it('are marked stale; the pool is replaced; a session’s is replaced at its next idle point with /workspace carried over', async () => {
    await service.start();
    await service.fillWarmPool();
    await service.forSession('moved').writeFile('notes/a.txt', 'kept across the move\n');
    await service
      .forSession('moved')
      .exec({ command: 'ln notes/a.txt hard.txt && ln -s notes/a.txt soft.txt' });
    const before = await service.acquireContainer('moved');
    expect((await service.listContainers()).map((container) => container.stale)).toEqual([
      false,
      false,
      false,
    ]);

    const rebuilt = await service.rebuild({ force: true }).done;
    expect(rebuilt.status).toBe('built');
    const current = (await service.imageStatus()).imageId;

    // Listed: the session's container runs the old image and says so; the pool was replaced.
    const session = (await byRole(service, 'session')).find((container) => container.id === before);
    expect(session).toMatchObject({ stale: true });
    expect(session?.imageId).not.toBe(current);
    await vi.waitFor(
      async () => {
        await service.fillWarmPool();
        const pool = await byRole(service, 'pool');
        expect(pool.map((container) => [container.stale, container.imageId])).toEqual([
          [false, current],
          [false, current],
        ]);
      },
      { timeout: 60_000, interval: 200 },
    );

    // The next tool call is an idle point: a new container on the new image, the files carried over.
    const read = await call('moved', 'run_command', {
      command: 'cat notes/a.txt; stat -c "%u %h" hard.txt; readlink soft.txt; echo more >> notes/a.txt',
    });
    expect(read.isError).toBe(false);
    expect(read.content).toMatch(/^Note: this session’s sandbox was moved to an updated sandbox image/);
    expect(read.content).toContain('/workspace was carried over');
    expect(read.content).toContain('kept across the move\n1000 2\nnotes/a.txt\n');
    const after = await service.acquireContainer('moved');
    expect(after).not.toBe(before);
    expect((await engine.inspectContainer(after))?.Image).toBe(current);
    expect(await engine.inspectContainer(before)).toBeUndefined();
    expect((await service.listContainers()).filter((container) => container.stale)).toEqual([]);

    // Said once: the next result is the command's alone.
    const next = await call('moved', 'read_file', { path: 'notes/a.txt' });
    expect(next).toEqual({ content: 'kept across the move\nmore\n', isError: false });
  });

  it('is not replaced while a command of its session runs; the next call after it is', async () => {
    const sandbox = service.forSession('busy');
    await sandbox.writeFile('f.txt', 'x');
    const before = await service.acquireContainer('busy');
    // Runs until the test writes `go`: across the rebuild and the calls below.
    const long = sandbox.exec({
      command: 'while [ ! -f go ]; do sleep 0.1; done; cat f.txt',
      timeoutMs: 300_000,
    });
    await service.rebuild({ force: true }).done;

    // Calls while it runs are not idle points: the old container serves them, nothing is said.
    const during = await call('busy', 'run_command', { command: 'echo during' });
    expect(during).toEqual({ content: expect.stringMatching(/^exit code: 0 .*during/s), isError: false });
    expect(await call('busy', 'write_file', { path: 'go', content: '' })).toMatchObject({ isError: false });
    expect((await long).stdout.text).toBe('x');
    expect(await service.acquireContainer('busy')).toBe(before);

    const afterwards = await call('busy', 'run_command', { command: 'cat f.txt' });
    expect(afterwards.content).toContain('/workspace was carried over');
    expect(afterwards.content).toContain('--- stdout ---\nx\n');
    expect(await service.acquireContainer('busy')).not.toBe(before);
  });
});

describe('adopted pool containers after a rebuild', () => {
  const earlier = testService('stale-adopted', { warmPoolSize: 2 });
  const later = testService('stale-adopted', { warmPoolSize: 2 });
  afterAll(() => removeEverything(later));

  it('are replaced like the pool’s own', async () => {
    await earlier.start();
    await earlier.fillWarmPool();
    await earlier.close(); // the process ends; its pool stays on the engine
    const leftovers = (await byRole(earlier, 'pool')).map((container) => container.id);
    await later.start();
    expect((await byRole(later, 'pool')).map((container) => container.id).sort()).toEqual(leftovers.sort());

    await later.rebuild({ force: true }).done;
    const current = (await later.imageStatus()).imageId;
    await vi.waitFor(
      async () => {
        await later.fillWarmPool();
        const pool = await byRole(later, 'pool');
        expect(pool.map((container) => [container.stale, container.imageId])).toEqual([
          [false, current],
          [false, current],
        ]);
      },
      { timeout: 60_000, interval: 200 },
    );
    for (const id of leftovers) expect(await engine.inspectContainer(id)).toBeUndefined();
  });
});

describe('a stale session container whose /workspace cannot be carried over', () => {
  // The same installation redeployed with a new version and a smaller workspace.
  const old = testService('stale-lost', {
    limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 8 * 1024 * 1024 },
  });
  const redeployed = testService('stale-lost', {
    agentdeskVersion: '1.0.1-test',
    limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 1024 * 1024 },
  });
  afterAll(() => removeEverything(redeployed));

  it('still gets a new container, and the next tool result says what was lost', async () => {
    await old.ensureSandboxImage();
    await old
      .forSession('full')
      .exec({ command: 'head -c 3000000 /dev/zero > big.bin && echo small > small.txt' });
    const before = await old.acquireContainer('full');

    expect((await redeployed.ensureSandboxImage()).status).toBe('built');
    expect((await redeployed.listContainers()).find((container) => container.id === before)).toMatchObject({
      stale: true,
    });
    const call = toolsOf(redeployed);
    const result = await call('full', 'run_command', { command: 'echo works' });
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(
      /^Note: .*\/workspace could not be carried over \(.+\): files from earlier calls may be missing or incomplete/,
    );
    expect(result.content).toContain('works\n');
    expect(await redeployed.acquireContainer('full')).not.toBe(before);
    expect(await engine.inspectContainer(before)).toBeUndefined();
    expect((await call('full', 'run_command', { command: 'echo again' })).content).not.toContain('Note:');
  });
});
