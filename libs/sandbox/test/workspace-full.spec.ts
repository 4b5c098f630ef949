import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSandboxError } from '../src/index';
import { removeEverything, testService } from './test-engine';

// The workspace as large as the processes' memory, as with the defaults (256 MiB each): a full
// tmpfs used to take all of the container's memory with it.
const mebibyte = 1024 * 1024;
const service = testService('full', {
  limits: { memoryBytes: 64 * mebibyte, pids: 48, cpus: 0.5, workspaceBytes: 64 * mebibyte },
  exec: { timeoutMs: 120_000 },
});

beforeAll(() => service.ensureSandboxImage());
afterAll(() => removeEverything(service));

it('fails only the write when /workspace is full; rm, echo and memory for processes still work', async () => {
  const sandbox = service.forSession('filled');
  const fill = await sandbox.exec({ command: 'dd if=/dev/zero of=/workspace/big bs=1M count=100 2>&1' });
  expect(fill.exitCode).toBe(1);
  expect(fill.stdout.text).toContain('No space left on device');
  expect((await sandbox.exec({ command: 'du -m big' })).stdout.text).toMatch(/^6[34]\tbig\n$/);

  // With the workspace full, processes still get their own memory (48 of 64 MiB here).
  const allocate = await sandbox.exec({
    command:
      'node -e "const a = []; for (let i = 0; i < 48; i++) a.push(Buffer.alloc(1 << 20, 1)); console.log(a.length)"',
  });
  expect(allocate).toMatchObject({ exitCode: 0, stdout: { text: '48\n' } });
  expect(await sandbox.exec({ command: 'echo ok' })).toMatchObject({ exitCode: 0, stdout: { text: 'ok\n' } });
  expect((await sandbox.exec({ command: 'rm big && echo removed' })).stdout.text).toBe('removed\n');
  expect((await sandbox.exec({ command: 'echo ok > small && cat small' })).stdout.text).toBe('ok\n');

  // A memory hog is still an out-of-memory kill.
  const hog = await sandbox
    .exec({ command: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"' })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(isSandboxError(hog, 'out-of-memory')).toBe(true);
  expect((await sandbox.exec({ command: 'echo still here' })).stdout.text).toBe('still here\n');
});

it('gives the container room for both: memory limit = processes + workspace, no swap', async () => {
  const inspect = await service.engine.inspectContainer(await service.acquireContainer('limits'));
  expect(inspect?.HostConfig).toMatchObject({ Memory: 128 * mebibyte, MemorySwap: 128 * mebibyte });
});
