import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EngineClient } from '../src/index';
import { rejection, removeEverything, testService, untilPathExists } from './test-engine';

/**
 * The real engine client, with hooks run as a command whose text contains their key is handed to the
 * engine: a Docker exec (the exec path's commands) or an attached exec (the runner's start).
 */
class EngineWithStartHooks extends EngineClient {
  readonly onStart = new Map<string, () => void>();

  override startExec(...args: Parameters<EngineClient['startExec']>): ReturnType<EngineClient['startExec']> {
    this.runHooks(args[1].command);
    return super.startExec(...args);
  }

  override startAttachedExec(
    ...args: Parameters<EngineClient['startAttachedExec']>
  ): ReturnType<EngineClient['startAttachedExec']> {
    this.runHooks(args[1].command);
    return super.startAttachedExec(...args);
  }

  private runHooks(command: readonly string[]): void {
    const commandLine = command.join(' ');
    for (const [key, hook] of this.onStart) if (commandLine.includes(key)) hook();
  }
}

const engine = new EngineWithStartHooks({ dockerHost: inject('dockerHost') });
const limits = { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 };
const service = testService('contain', { limits, exec: { maxOutputBytes: 4096 } }, { engine });
/** The same sandbox image, commands through a Docker exec each (images without the runner). */
const execService = testService(
  'contain',
  { limits, exec: { maxOutputBytes: 4096, useRunner: false } },
  { engine },
);

/**
 * A fork bomb that outgrows the pids limit many times over (up to 2,046 processes) and still ends by
 * itself: an endless one dies out only by chance, which took from 1 to 32 s on a loaded machine. Its
 * shell returns only once every process of the bomb is gone, counted with shell builtins (no fork
 * needed): else the runner reports as soon as the output pauses, with the bomb still running into the
 * next command.
 */
const forkBomb = [
  'set -- /proc/[0-9]*; before=$#',
  'bomb() { [ $1 -gt 0 ] && { bomb $(($1 - 1)) | bomb $(($1 - 1)) & }; }',
  'bomb 10',
  'until set -- /proc/[0-9]*; [ $# -le $before ]; do :; done',
].join('; ');

beforeAll(() => service.ensureSandboxImage());
afterAll(async () => {
  await execService.close();
  await removeEverything(service);
});

// Each case uses its own session (its own container), so they run side by side.
describe.concurrent('containment', () => {
  it('runs as a non-root user with no capabilities, no new privileges and a read-only root', async () => {
    const sandbox = service.forSession('identity');
    const result = await sandbox.exec({ command: 'id -u; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status' });
    expect(result.stdout.text).toBe('1000\nCapEff:\t0000000000000000\nNoNewPrivs:\t1\n');
    const inspect = await service.engine.inspectContainer(await service.acquireContainer('identity'));
    expect(inspect?.HostConfig).toMatchObject({
      ReadonlyRootfs: true,
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      Init: true,
    });
    expect(inspect?.Config.Labels).toMatchObject({
      'agentdesk.owner': 'test-contain',
      'agentdesk.sandbox.session': 'identity',
    });
  });

  it('stops a fork bomb at the pids limit, and the sandbox (and the next command) survive', async () => {
    const sandbox = service.forSession('fork-bomb');
    const containerId = await service.acquireContainer('fork-bomb');
    const bomb = await sandbox.exec({ command: forkBomb, timeoutMs: 60_000 });
    expect(bomb.stderr.text).toContain("can't fork: Resource temporarily unavailable");
    const result = await sandbox.exec({ command: 'cat /sys/fs/cgroup/pids/pids.max; echo alive' });
    expect(result.stdout.text).toBe('48\nalive\n');
    expect(result.exitCode).toBe(0);
    // The same sandbox, not a fresh one after a saturated one was stopped.
    expect(await service.acquireContainer('fork-bomb')).toBe(containerId);
  });

  it('kills a memory hog with 137 and reports out-of-memory; the container keeps running', async () => {
    const sandbox = service.forSession('memory-hog');
    const error = await rejection(
      sandbox.exec({ command: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"' }),
    );
    expect(error.code).toBe('out-of-memory');
    expect(error.details['exitCode']).toBe(137);
    expect((await sandbox.exec({ command: 'echo fine' })).stdout.text).toBe('fine\n');
    // An ordinary SIGKILL is not an out-of-memory kill: a result with the signal named.
    expect(await sandbox.exec({ command: 'kill -9 $$' })).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
  });

  it('kills an endless loop and its children at the timeout: nothing is left in the process list', async () => {
    const sandbox = service.forSession('endless');
    const error = await rejection(
      sandbox.exec({
        command:
          'echo started; setsid sleep 301 & (while :; do :; done) & yes > /dev/null & while :; do :; done',
        // The timer runs from the start: room for the first line to be printed on a loaded machine.
        timeoutMs: 5000,
      }),
    );
    expect(error.code).toBe('exec-timeout');
    expect((error.details['stdout'] as { text: string }).text).toBe('started\n');
    // Killed at the timeout; on a loaded machine the container's init may reap the dead a moment
    // later (they show as `[yes]`, `[sleep]` meanwhile): wait for the list to be clean, not a duration.
    const left = /yes|while|sleep 301/;
    let processes = await sandbox.exec({ command: 'ps -o args' });
    for (let look = 0; look < 100 && left.test(processes.stdout.text); look++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      processes = await sandbox.exec({ command: 'ps -o args' });
    }
    expect(processes.stdout.text).not.toMatch(left);
    expect(processes.stdout.text).toContain('sleep infinity');
  });

  it('kills a cancelled command and its children at once, long before its timeout', async () => {
    const sandbox = service.forSession('cancelled');
    await sandbox.exec({ command: 'true' }); // container and runner up: the abort lands in the command
    const controller = new AbortController();
    const running = sandbox.exec(
      // A timeout (ten minutes) and a command (303 s) both far past the test's own timeout.
      { command: 'echo started; (sleep 302 &) ; touch started; sleep 303', timeoutMs: 600_000 },
      controller.signal,
    );
    // Cancelled mid-command, however long the start took.
    await untilPathExists(service.engine, await service.acquireContainer('cancelled'), '/workspace/started');
    controller.abort();
    // "At once, long before its timeout" without a stopwatch: a cancel that did not kill the command
    // would leave this waiting for the command's end or its timeout, past the test's timeout.
    const error = await rejection(running);
    expect(error.code).toBe('exec-cancelled');
    expect((error.details['stdout'] as { text: string }).text).toBe('started\n');
    const processes = await sandbox.exec({ command: 'ps -o args' });
    expect(processes.stdout.text).not.toMatch(/sleep 30[23]/);
    // Already cancelled: nothing starts.
    expect((await rejection(sandbox.exec({ command: 'touch never' }, controller.signal))).code).toBe(
      'exec-cancelled',
    );
    expect((await sandbox.exec({ command: 'ls' })).stdout.text).not.toContain('never');
  });

  it('kills a command cancelled while the engine is still starting its exec, instead of letting it run to its timeout', async () => {
    const sandbox = execService.forSession('cancelled-at-start');
    await sandbox.exec({ command: 'true' }); // the container exists: the abort lands in the exec's start
    // The engine answers the start before the command's first process exists: a kill sent at once
    // may find nothing (seen under load). Several rounds, each checked for leftovers.
    for (let round = 0; round < 3; round += 1) {
      const controller = new AbortController();
      engine.onStart.set('sleep 304', () => controller.abort());
      const error = await rejection(
        sandbox.exec({ command: 'echo started; sleep 304', timeoutMs: 20_000 }, controller.signal),
      );
      engine.onStart.delete('sleep 304');
      expect(error.code).toBe('exec-cancelled');
      const processes = await sandbox.exec({ command: 'ps -o args' });
      expect(processes.stdout.text).not.toMatch(/sleep 304/);
    }
  });

  it('runs nothing when the command is cancelled while the runner is still starting', async () => {
    const sandbox = service.forSession('cancelled-at-runner-start');
    await service.acquireContainer('cancelled-at-runner-start'); // its runner starts with the first command
    const controller = new AbortController();
    engine.onStart.set(`runner.cjs`, () => controller.abort());
    const error = await rejection(
      sandbox.exec({ command: 'touch started; sleep 305', timeoutMs: 20_000 }, controller.signal),
    );
    engine.onStart.delete('runner.cjs');
    expect(error.code).toBe('exec-cancelled');
    const after = await sandbox.exec({ command: 'ps -o args; ls' });
    expect(after.stdout.text).not.toMatch(/sleep 305|started/);
  });

  it('has no network', async () => {
    const sandbox = service.forSession('network');
    const result = await sandbox.exec({
      command: `node -e "require('net').connect(80, '1.1.1.1').on('error', e => { console.log(e.code); process.exit(3) })"; ls /sys/class/net`,
    });
    expect(result.stdout.text).toMatch(/^(ENETUNREACH|EHOSTUNREACH)\nlo\n$/);
  });

  it('refuses writes outside /workspace, through the shell and through the file API', async () => {
    const sandbox = service.forSession('writes');
    const result = await sandbox.exec({
      command: 'touch /etc/x /tmp/x /x 2>&1; echo ok > /workspace/in.txt && cat in.txt',
    });
    expect(result.stdout.text).toMatch(
      /\/etc\/x: Read-only file system[\s\S]*\/tmp\/x: Read-only[\s\S]*ok\n$/,
    );
    for (const path of [
      '/etc/passwd',
      '../etc/passwd',
      'a/../../etc/x',
      '/workspace/../tmp/x',
      '',
      'nul\0byte',
    ]) {
      expect((await rejection(sandbox.writeFile(path, 'x'))).code).toBe('invalid-path');
      expect((await rejection(sandbox.readFile(path))).code).toBe('invalid-path');
    }
  });

  it('caps the workspace size', async () => {
    const sandbox = service.forSession('disk');
    const result = await sandbox.exec({ command: 'dd if=/dev/zero of=big bs=1M count=10 2>&1; echo $?' });
    expect(result.stdout.text).toMatch(/No space left on device[\s\S]*\n1\n$/);
  });

  it('caps and demultiplexes stdout and stderr', async () => {
    const sandbox = service.forSession('output');
    const result = await sandbox.exec({
      command: 'head -c 100000 /dev/zero | tr "\\0" a; echo oops >&2; exit 4',
    });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatchObject({ text: 'a'.repeat(4096), totalBytes: 100_000, truncated: true });
    expect(result.stderr).toEqual({ text: 'oops\n', totalBytes: 5, truncated: false });
  });

  it('reads, writes and lists files through the archive API, owned by the sandbox user', async () => {
    const sandbox = service.forSession('files');
    expect(await sandbox.writeFile('src/deep/hello.txt', 'héllo\n')).toEqual({
      path: 'src/deep/hello.txt',
      bytes: 7,
    });
    expect((await sandbox.readFile('/workspace/src/deep/hello.txt')).content.toString()).toBe('héllo\n');
    expect((await sandbox.exec({ command: 'stat -c "%u %s" src/deep/hello.txt' })).stdout.text).toBe(
      '1000 7\n',
    );
    const top = await sandbox.listFiles();
    expect(top.entries.map((entry) => [entry.path, entry.type])).toEqual([['src', 'directory']]);
    const all = await sandbox.listFiles({ recursive: true });
    expect(all.entries.map((entry) => entry.path)).toEqual(['src', 'src/deep', 'src/deep/hello.txt']);
    expect((await rejection(sandbox.readFile('missing.txt'))).code).toBe('file-not-found');
    expect((await rejection(sandbox.readFile('src'))).code).toBe('invalid-path');
    await sandbox.exec({ command: 'ln -s /etc/passwd link' });
    expect((await rejection(sandbox.readFile('link'))).code).toBe('invalid-path');
  });

  it('leaves another session untouched while one session misbehaves', async () => {
    const noisy = service.forSession('noisy');
    const quiet = service.forSession('quiet');
    await quiet.writeFile('keep.txt', 'mine');
    const bomb = noisy.exec({ command: forkBomb, timeoutMs: 60_000 });
    const during = await quiet.exec({ command: 'cat keep.txt; ls /workspace' });
    expect(during.stdout.text).toBe('minekeep.txt\n');
    expect((await bomb).stderr.text).toContain("can't fork");
    expect((await quiet.readFile('keep.txt')).content.toString()).toBe('mine');
  });
});
