import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildOfflineBaseImage,
  EngineClient,
  isSandboxError,
  SandboxService,
  silentLogger,
  startPrivateEngine,
  type PrivateEngine,
  type SandboxError,
} from '../src/index';
import { runCommand } from '../src/sandboxes/run-command';
import { sandboxErrorOutput } from '../src/tools/tool-error-output';
import { testBaseImage } from './test-engine';

// Stopping the shared engine would break the other files: this one stops an engine of its own.
const directory = mkdtempSync('/tmp/agentdesk-stop-');
let privateEngine: PrivateEngine;
let service: SandboxService;

beforeAll(async () => {
  privateEngine = await startPrivateEngine({ directory, log: () => undefined });
  await buildOfflineBaseImage(privateEngine.engine, { reference: testBaseImage });
  service = new SandboxService(
    {
      tag: 'agentdesk-stop:latest',
      baseImage: testBaseImage,
      agentdeskVersion: '1.0.0-test',
      ownerId: 'test-stop',
      warmPoolSize: 0,
      reaperIntervalMs: 0,
      limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 },
    },
    { engine: new EngineClient({ dockerHost: privateEngine.dockerHost }), logger: silentLogger },
  );
  await service.ensureSandboxImage();
});

afterAll(async () => {
  await service?.close();
  await privateEngine?.stop({ removeDirectory: true });
});

it('says the engine went away, not out of memory, when it is stopped mid-command', async () => {
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
  while (!(await service.engine.statPath(containerId, '/workspace/started'))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await privateEngine.stop();

  const error: SandboxError = await running;
  expect(error.code).toBe('engine-unavailable');
  expect(error.message).toContain('Docker engine stopped answering while the command ran');
  const text = sandboxErrorOutput('run_command', error).content;
  expect(text).toMatch(/^run_command: the sandbox is unavailable right now/);
  expect(text).not.toContain('out of memory:');
  expect(text).toContain('--- stdout (partial) ---\nstarted');
});
