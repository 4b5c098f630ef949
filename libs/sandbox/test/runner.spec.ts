import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, type SandboxService } from '../src/index';
import { CommandExecutor } from '../src/runner/command-executor';
import { hardenedContainerOptions } from '../src/sandboxes/container-spec';
import { parseSandboxConfig } from '../src/config/sandbox-config';
import { dockerCli } from './docker-cli';
import {
  rejection,
  removeEverything,
  testBaseImage,
  testEngine,
  testService,
  untilPathExists,
} from './test-engine';

// The in-container runner against the Docker exec path: the same cases on both, on the real engine.
const limits = { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 };
const viaRunner = testService('runner', { limits, exec: { maxOutputBytes: 4096 } });
const viaExec = testService('runner', { limits, exec: { maxOutputBytes: 4096, useRunner: false } });
const engine = testEngine();

beforeAll(() => viaRunner.ensureSandboxImage());
afterAll(async () => {
  await viaExec.close();
  await removeEverything(viaRunner);
});

describe.concurrent('commands run through the in-container runner', () => {
  it('runs as a child of the runner, not of a Docker exec', async () => {
    const result = await viaRunner
      .forSession('parent')
      .exec({ command: 'tr "\\0" " " < /proc/$PPID/cmdline' });
    expect(result.stdout.text).toContain('/opt/agentdesk/runner.cjs');
    const exec = await viaExec
      .forSession('parent-exec')
      .exec({ command: 'tr "\\0" " " < /proc/$PPID/cmdline' });
    expect(exec.stdout.text).not.toContain('runner.cjs');
  });

  it('starts a new runner when the old one was killed, and says the command was lost', async () => {
    const sandbox = viaRunner.forSession('runner-killed');
    await sandbox.exec({ command: 'true' });
    const error = await rejection(sandbox.exec({ command: 'kill -9 $PPID; sleep 5' }));
    expect(error.code).toBe('engine-error');
    expect(error.message).toContain('runner stopped');
    const next = await sandbox.exec({ command: 'echo back' });
    expect(next).toMatchObject({ exitCode: 0, stdout: { text: 'back\n' } });
  });

  it('reports a container removed mid-command as container-missing, not out of memory', async () => {
    const sandbox = viaRunner.forSession('removed-mid-command');
    const containerId = await viaRunner.acquireContainer('removed-mid-command');
    await sandbox.exec({ command: 'true' });
    const running = rejection(sandbox.exec({ command: 'touch started; sleep 30' }));
    await untilPathExists(engine, containerId, '/workspace/started');
    await dockerCli('rm', '-f', containerId);
    const error = await running;
    expect(error.code).toBe('container-missing');
    // Not run again on a fresh container: what it had done is gone with the old one.
    expect(error.details['commandStarted']).toBe(true);
    expect((await sandbox.exec({ command: 'echo fresh' })).stdout.text).toBe('fresh\n');
  });

  it('runs 8 sessions × 20 commands at once with every answer right', async () => {
    const sessions = Array.from({ length: 8 }, (_, index) => viaRunner.forSession(`many-${index}`));
    const answers = await Promise.all(
      sessions.map(async (session, sessionIndex) => {
        const texts: string[] = [];
        for (let index = 0; index < 20; index++) {
          texts.push((await session.exec({ command: `echo ${sessionIndex}-${index}` })).stdout.text);
        }
        return texts;
      }),
    );
    expect(answers).toEqual(
      sessions.map((_, sessionIndex) =>
        Array.from({ length: 20 }, (_, index) => `${sessionIndex}-${index}\n`),
      ),
    );
  });
});

// Each row runs on both paths with the same expectations.
describe.concurrent.each([
  ['runner', viaRunner],
  ['docker exec', viaExec],
] as const)('parity: %s', (path: string, service: SandboxService) => {
  const session = (name: string) => service.forSession(`${name}-${path.replace(' ', '-')}`);

  it('gives exit code, stdout and stderr', async () => {
    const result = await session('plain').exec({ command: 'echo out; echo err >&2; exit 7' });
    expect(result).toMatchObject({
      exitCode: 7,
      stdout: { text: 'out\n', truncated: false },
      stderr: { text: 'err\n', truncated: false },
    });
  });

  it('keeps the first bytes up to the cap and counts the rest', async () => {
    const result = await session('cap').exec({ command: 'head -c 10000 /dev/zero | tr "\\0" x' });
    expect(result.stdout).toEqual({ text: 'x'.repeat(4096), totalBytes: 10_000, truncated: true });
  });

  it('kills the tree at the timeout and leaves nothing running', async () => {
    const sandbox = session('timeout');
    const error = await rejection(
      // The timer runs from the start: room for the first line to be printed on a loaded machine.
      sandbox.exec({ command: 'sleep 311 & sleep 312 & echo started; wait', timeoutMs: 5000 }),
    );
    expect(error.code).toBe('exec-timeout');
    expect((error.details['stdout'] as { text: string }).text).toBe('started\n');
    const ps = await sandbox.exec({ command: 'ps -o args' });
    expect(ps.stdout.text).not.toMatch(/sleep 31[12]/);
  });

  it('kills a cancelled command at once', async () => {
    const sandbox = session('cancel');
    const controller = new AbortController();
    const running = sandbox.exec(
      { command: 'touch started; sleep 321', timeoutMs: 30_000 },
      controller.signal,
    );
    // Cancelled mid-command, however long the start took.
    await untilPathExists(engine, await service.acquireContainer(sandbox.sessionId), '/workspace/started');
    controller.abort();
    expect((await rejection(running)).code).toBe('exec-cancelled');
    const ps = await sandbox.exec({ command: 'ps -o args' });
    expect(ps.stdout.text).not.toContain('sleep 321');
  });

  it('reports a memory hog as out of memory, and kill -9 as an ordinary 137', async () => {
    const sandbox = session('oom');
    const error = await rejection(
      sandbox.exec({ command: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"' }),
    );
    expect(error.code).toBe('out-of-memory');
    expect((await sandbox.exec({ command: 'kill -9 $$' })).exitCode).toBe(137);
    expect((await sandbox.exec({ command: 'echo fine' })).stdout.text).toBe('fine\n');
  });
});

describe('a container whose image has no runner', () => {
  it('runs commands through docker exec instead', async () => {
    const config = parseSandboxConfig({ ...viaRunner.config, ownerId: 'test-runner-old' });
    const containerId = await engine.createContainer(
      hardenedContainerOptions(config, {
        imageId: testBaseImage,
        name: 'test-runner-old-image',
        role: 'pool',
      }),
    );
    try {
      await engine.startContainer(containerId);
      const executor = new CommandExecutor(engine, config, silentLogger);
      const counter = { read: () => 0, write: () => undefined };
      const result = await executor.run(
        containerId,
        { command: 'tr "\\0" " " < /proc/$PPID/cmdline; echo; echo ok' },
        counter,
      );
      expect(result.exitCode).toBe(0);
      expect(result.stdout.text).not.toContain('runner.cjs');
      expect(result.stdout.text).toContain('ok\n');
      executor.close();
    } finally {
      await engine.removeContainer(containerId);
    }
  });
});
