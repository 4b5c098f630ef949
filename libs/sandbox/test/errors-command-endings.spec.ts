import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSandboxError, type SandboxError } from '../src/index';
import { type CommandResult, runCommand } from '../src/sandboxes/run-command';
import { formatCommandResult } from '../src/tools/format-command-result';
import { sandboxErrorOutput } from '../src/tools/tool-error-output';
import { dockerCli } from './docker-cli';
import { removeEverything, testService } from './test-engine';
import { waitFor } from './wait-for';

// The Docker-exec path itself, called directly: the service may run commands through the
// in-container runner instead (images that have it), which is tested on its own.
const service = testService('endings', {
  limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 },
  exec: { timeoutMs: 120_000 },
});

beforeAll(() => service.ensureSandboxImage());
afterAll(() => removeEverything(service));

/** A session's container and a way to run commands in it over Docker exec. */
async function sandboxOf(sessionId: string) {
  const containerId = await service.acquireContainer(sessionId);
  let seenOomKills = 0;
  const oomKills = { read: () => seenOomKills, write: (count: number) => (seenOomKills = count) };
  return {
    containerId,
    run: (command: string): Promise<CommandResult> =>
      runCommand(service.engine, service.config, containerId, { command }, oomKills),
  };
}

async function rejection(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    if (isSandboxError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Waits until the command has written its marker file: it is running, mid-command. */
async function untilStarted(containerId: string, marker: string): Promise<void> {
  await waitFor(
    async () => {
      const found = await dockerCli('exec', containerId, 'sh', '-c', `test -e ${marker} && echo yes || true`);
      return found === 'yes' ? true : undefined;
    },
    `the command in ${containerId} to write ${marker}`,
    {
      attempts: 600,
      intervalMs: 100,
      state: () => dockerCli('inspect', '--format', '{{json .State}}', containerId),
    },
  );
}

describe.concurrent('how a command ended, on the Docker exec path', () => {
  it('says a container removed mid-command is gone (not out of memory), marked as started (not to be run again)', async () => {
    const sandbox = await sandboxOf('removed');
    const running = rejection(sandbox.run('echo started; touch /workspace/started; sleep 40'));
    await untilStarted(sandbox.containerId, '/workspace/started');
    await dockerCli('rm', '-f', sandbox.containerId);
    const error = await running;
    expect(error.code).toBe('container-missing');
    expect(error.details['commandStarted']).toBe(true);
    expect(error.message).toContain('removed while the command ran');
    const text = sandboxErrorOutput('run_command', error).content;
    expect(text).toContain('--- stdout (partial) ---\nstarted');
    expect(text).not.toContain('out of memory:');
  });

  it('says a container stopped mid-command stopped (not out of memory)', async () => {
    const sandbox = await sandboxOf('stopped');
    const running = rejection(sandbox.run('touch /workspace/started; sleep 40'));
    await untilStarted(sandbox.containerId, '/workspace/started');
    await dockerCli('stop', '--time', '1', sandbox.containerId);
    const error = await running;
    expect(error.code).toBe('container-stopped');
    expect(sandboxErrorOutput('run_command', error).content).toMatch(
      /^run_command: the sandbox stopped: the sandbox container stopped while the command ran/,
    );
    // The session's next command gets a fresh sandbox.
    expect((await service.forSession('stopped').exec({ command: 'echo back' })).stdout.text).toBe('back\n');
  });

  it('reports kill -9 as killed by SIGKILL, not out of memory — also after a real out-of-memory kill', async () => {
    const sandbox = await sandboxOf('signals');
    const killed = await sandbox.run('echo before; kill -9 $$');
    expect(killed).toMatchObject({ exitCode: 137, signal: 'SIGKILL', stdout: { text: 'before\n' } });
    expect(formatCommandResult(killed)).toMatch(
      /^exit code: 137 \(\d+ ms\) — killed by SIGKILL \(not out of memory\)\n/,
    );
    const hog = await rejection(
      sandbox.run('node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"'),
    );
    expect(hog.code).toBe('out-of-memory');
    // The counter moved once; the next SIGKILL is compared with that, not with zero.
    expect(await sandbox.run('kill -9 $$')).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
    expect(await sandbox.run('kill -SEGV $$')).toMatchObject({ exitCode: 139, signal: 'SIGSEGV' });
    expect(await sandbox.run('exit 3')).toEqual(expect.not.objectContaining({ signal: expect.anything() }));
  });

  it('still reports a memory hog as out of memory, and the sandbox goes on', async () => {
    const sandbox = await sandboxOf('memory-hog');
    const error = await rejection(
      sandbox.run('node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"'),
    );
    expect(error.code).toBe('out-of-memory');
    expect(error.details['exitCode']).toBe(137);
    expect(sandboxErrorOutput('run_command', error).content).toContain('run_command: out of memory:');
    expect((await sandbox.run('echo fine')).stdout.text).toBe('fine\n');
  });
});
