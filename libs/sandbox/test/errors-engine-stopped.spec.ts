import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSandboxError, type SandboxError } from '../src/index';
import { runCommand } from '../src/sandboxes/run-command';
import { sandboxErrorOutput } from '../src/tools/tool-error-output';
import { startStoppableEngine, untilPathExists, type StoppableEngine } from './test-engine';

let stoppable: StoppableEngine;

beforeAll(async () => {
  stoppable = await startStoppableEngine('stop', {
    limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 },
  });
});

afterAll(async () => {
  await stoppable?.dispose();
});

it('says the engine went away, not out of memory, when it is stopped mid-command', async () => {
  const { service } = stoppable;
  const containerId = await service.acquireContainer('engine-stops');
  let seenOomKills = 0;
  // The Docker-exec path itself (the service may use the in-container runner on this image).
  const running = runCommand(
    service.engine,
    service.config,
    containerId,
    { command: 'echo started; touch /workspace/started; sleep 40', timeoutMs: 120_000 },
    { read: () => seenOomKills, write: (count) => (seenOomKills = count) },
  ).then(
    () => {
      throw new Error('expected the command to fail');
    },
    (error: unknown) => {
      if (isSandboxError(error)) return error;
      throw error;
    },
  );
  // Stopped mid-command: once the command has written its marker.
  await untilPathExists(service.engine, containerId, '/workspace/started');
  await stoppable.engine.stop();

  const error: SandboxError = await running;
  expect(error.code).toBe('engine-unavailable');
  expect(error.message).toContain('Docker engine stopped answering while the command ran');
  const text = sandboxErrorOutput('run_command', error).content;
  expect(text).toMatch(/^run_command: the sandbox is unavailable right now/);
  expect(text).not.toContain('out of memory:');
  expect(text).toContain('--- stdout (partial) ---\nstarted');
});
