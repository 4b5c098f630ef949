import { InMemoryToolResultStore } from '@agentdesk/compressor';
import { ToolRegistry, type ToolContext } from '@agentdesk/agent-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxTools, SandboxService, silentLogger } from '../src/index';
import { removeEverything, testService } from './test-engine';

const service = testService('tools', {
  limits: { memoryBytes: 64 * 1024 * 1024, pids: 48, cpus: 0.5, workspaceBytes: 4 * 1024 * 1024 },
  exec: { timeoutMs: 20_000, maxOutputBytes: 4096 },
});
const tools = new ToolRegistry(createSandboxTools(service));

beforeAll(() => service.ensureSandboxImage());
afterAll(() => removeEverything(service));

function contextOf(sessionId: string): ToolContext {
  return {
    ownerUserId: 'u1',
    sessionId,
    toolResults: new InMemoryToolResultStore(),
    signal: new AbortController().signal,
  };
}

const call = (sessionId: string, name: string, argumentsValue: unknown) =>
  tools.execute(name, JSON.stringify(argumentsValue), contextOf(sessionId));

describe.concurrent('sandbox tools', () => {
  it('define run_command, read_file, write_file and list_files with strict JSON Schemas', () => {
    const definitions = tools.definitions();
    expect(definitions.map((definition) => definition.name)).toEqual([
      'run_command',
      'read_file',
      'write_file',
      'list_files',
    ]);
    for (const definition of definitions)
      expect(definition.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    expect(definitions[0]?.parameters).toMatchObject({ required: ['command'] });
  });

  it('write, list, read and run in one session’s workspace', async () => {
    expect(
      await call('tools-a', 'write_file', { path: 'src/hello.js', content: 'console.log(6 * 7)\n' }),
    ).toEqual({ content: 'wrote 19 bytes to src/hello.js', isError: false });
    expect(await call('tools-a', 'list_files', { recursive: true })).toEqual({
      content: 'dir   src/\nfile  src/hello.js  (19 bytes)',
      isError: false,
    });
    expect(await call('tools-a', 'read_file', { path: '/workspace/src/hello.js' })).toEqual({
      content: 'console.log(6 * 7)\n',
      isError: false,
    });
    const run = await call('tools-a', 'run_command', { command: 'node src/hello.js; echo oops >&2; exit 3' });
    expect(run.isError).toBe(false);
    expect(run.content).toMatch(/^exit code: 3 \(\d+ ms\)\n--- stdout ---\n42\n\n--- stderr ---\noops\n$/);
  });

  it('keeps each session’s files to itself', async () => {
    await call('tools-owner', 'write_file', { path: 'secret.txt', content: 'mine' });
    const other = await call('tools-other', 'read_file', { path: 'secret.txt' });
    expect(other).toMatchObject({ isError: true, content: expect.stringContaining('does not exist') });
    expect(await call('tools-other', 'list_files', {})).toEqual({
      content: '(empty directory)',
      isError: false,
    });
  });

  it('says when output was capped', async () => {
    const output = await call('tools-big', 'run_command', { command: 'seq 1 5000' });
    expect(output.content).toContain('--- stdout (only the first 4096 of 23893 bytes were kept) ---');
  });

  it('answers a timeout with an error result and partial output; the sandbox stays usable', async () => {
    const output = await call('tools-slow', 'run_command', {
      command: 'echo started; sleep 30',
      // The timer runs from the start: room for the first line to be printed on a loaded machine.
      timeout_seconds: 5,
    });
    expect(output.isError).toBe(true);
    expect(output.content).toContain('run_command: timed out: the command ran longer than 5000 ms');
    expect(output.content).toContain('--- stdout (partial) ---\nstarted');
    expect((await call('tools-slow', 'run_command', { command: 'echo again' })).content).toContain('again');
  });

  it('reports an out-of-memory kill (exit 137) as such', async () => {
    const output = await call('tools-oom', 'run_command', {
      command: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"',
    });
    expect(output.isError).toBe(true);
    expect(output.content).toContain('run_command: out of memory:');
    expect(output.content).toContain('exit 137');
  });

  it('says a command killed by SIGKILL was not out of memory', async () => {
    const output = await call('tools-kill', 'run_command', { command: 'echo before; kill -9 $$' });
    expect(output.isError).toBe(false);
    expect(output.content).toMatch(/^exit code: 137 \(\d+ ms\) — killed by SIGKILL \(not out of memory\)\n/);
    expect(output.content).toContain('--- stdout ---\nbefore');
  });

  it('keeps file tools inside /workspace: a link out is refused, or listed as a link', async () => {
    await call('tools-links', 'run_command', { command: 'ln -s /etc etcdir && ln -s /tmp tmpx' });
    const read = await call('tools-links', 'read_file', { path: 'etcdir/passwd' });
    expect(read).toEqual({
      isError: true,
      content: expect.stringMatching(
        /^read_file: path "etcdir\/passwd": etcdir is a symbolic link to \/etc, out of \/workspace/,
      ),
    });
    expect(await call('tools-links', 'write_file', { path: 'tmpx/a', content: 'x' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('tmpx is a symbolic link to /tmp, out of /workspace'),
    });
    expect(await call('tools-links', 'list_files', { path: 'etcdir' })).toEqual({
      isError: false,
      content: 'link  etcdir',
    });
  });

  it.each([
    ['a path outside the workspace', 'read_file', { path: '../etc/passwd' }, 'read_file: '],
    ['a missing file', 'read_file', { path: 'nope.txt' }, 'does not exist'],
    ['an unknown argument', 'run_command', { command: 'true', sudo: true }, 'sudo'],
    ['a missing argument', 'write_file', { path: 'a.txt' }, 'content:'],
    [
      'a timeout above the cap',
      'run_command',
      { command: 'true', timeout_seconds: 100_000 },
      'timeout_seconds:',
    ],
  ])('answers %s with an error result', async (_case, name, argumentsValue, mention) => {
    const output = await call('tools-errors', name, argumentsValue);
    expect(output.isError).toBe(true);
    expect(output.content).toContain(mention);
  });
});

it('answers with an error result when the engine cannot be reached', async () => {
  const unreachable = new SandboxService(
    { agentdeskVersion: '1.0.0-test', warmPoolSize: 0, reaperIntervalMs: 0 },
    { engine: { dockerHost: 'unix:///tmp/agentdesk-no-engine-here.sock' }, logger: silentLogger },
  );
  const registry = new ToolRegistry(createSandboxTools(unreachable));
  for (const [name, argumentsValue] of [
    ['run_command', { command: 'true' }],
    ['read_file', { path: 'a' }],
    ['write_file', { path: 'a', content: 'x' }],
    ['list_files', {}],
  ] as const) {
    const output = await registry.execute(name, JSON.stringify(argumentsValue), contextOf('down'));
    expect(output, name).toMatchObject({
      isError: true,
      content: expect.stringContaining(`${name}: the sandbox is unavailable right now`),
    });
  }
});
