import { describe, expect, it } from 'vitest';
import { SandboxError } from '../engine/sandbox-error';
import { formatCommandResult } from '../tools/format-command-result';
import { sandboxErrorOutput } from '../tools/tool-error-output';
import { type CommandOutcome, commandOutcomeResult, signalNumber, signalOfExitCode } from './command-outcome';

const output = { text: 'partial\n', totalBytes: 8, truncated: false };
const limits = { timeoutMs: 1000, memoryBytes: 64 * 1024 * 1024 };

/** A command that ended normally in a healthy sandbox; each case changes what it needs. */
function outcome(changes: Partial<CommandOutcome>): CommandOutcome {
  return {
    exitCode: 0,
    oomKilled: false,
    timedOut: false,
    cancelled: false,
    engineReachable: true,
    containerState: 'running',
    stdout: output,
    stderr: output,
    durationMs: 1234,
    ...changes,
  };
}

function errorOf(changes: Partial<CommandOutcome>): SandboxError {
  const settled = commandOutcomeResult(outcome(changes), limits);
  if (!(settled instanceof SandboxError)) throw new Error(`expected an error, got exit ${settled.exitCode}`);
  return settled;
}

describe('commandOutcomeResult', () => {
  it('returns a plain exit code as the result, with no signal', () => {
    expect(commandOutcomeResult(outcome({ exitCode: 3 }), limits)).toEqual({
      exitCode: 3,
      stdout: output,
      stderr: output,
      durationMs: 1234,
    });
  });

  it('names the signal of 128 + n, and says a SIGKILL was not out of memory', () => {
    const result = commandOutcomeResult(outcome({ exitCode: 137 }), limits);
    expect(result).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
    expect(formatCommandResult(result as Exclude<typeof result, SandboxError>)).toMatch(
      /^exit code: 137 \(\d+ ms\) — killed by SIGKILL \(not out of memory\)\n/,
    );
    const segfault = commandOutcomeResult(outcome({ exitCode: 139 }), limits);
    expect(formatCommandResult(segfault as Exclude<typeof segfault, SandboxError>)).toMatch(
      /^exit code: 139 \(\d+ ms\) — killed by SIGSEGV\n/,
    );
  });

  it('takes a signal the runner reports directly, and derives the exit code from it', () => {
    expect(commandOutcomeResult(outcome({ exitCode: undefined, signal: 'SIGTERM' }), limits)).toMatchObject({
      exitCode: 143,
      signal: 'SIGTERM',
    });
  });

  it('is out of memory only when the counter or engine says so', () => {
    const error = errorOf({ exitCode: 137, oomKilled: true });
    expect(error.code).toBe('out-of-memory');
    expect(error.details).toMatchObject({ exitCode: 137, stdout: output });
    expect(sandboxErrorOutput('run_command', error).content).toContain('run_command: out of memory:');
  });

  it('puts our own stops first: cancelled, then timed out', () => {
    expect(errorOf({ cancelled: true, timedOut: true, engineReachable: false }).code).toBe('exec-cancelled');
    const timeout = errorOf({ timedOut: true, exitCode: 137, oomKilled: true });
    expect(timeout.code).toBe('exec-timeout');
    expect(timeout.details).toMatchObject({ timeoutMs: 1000 });
  });

  it('says the engine went away, not out of memory, when it stopped answering', () => {
    const error = errorOf({ exitCode: 137, engineReachable: false, containerState: 'unknown' });
    expect(error.code).toBe('engine-unavailable');
    expect(error.message).toContain('stopped answering while the command ran');
    const text = sandboxErrorOutput('run_command', error).content;
    expect(text).toContain('the sandbox is unavailable right now');
    expect(text).not.toContain('out of memory:');
  });

  it('says the container was removed, and marks the command as started (not to be run again)', () => {
    const error = errorOf({ exitCode: undefined, containerState: 'missing' });
    expect(error.code).toBe('container-missing');
    expect(error.details['commandStarted']).toBe(true);
    expect(sandboxErrorOutput('run_command', error).content).toMatch(
      /^run_command: the sandbox is gone: the sandbox container was removed while the command ran/,
    );
  });

  it('says the container stopped, not for memory', () => {
    const error = errorOf({ exitCode: 137, containerState: 'stopped' });
    expect(error.code).toBe('container-stopped');
    expect(sandboxErrorOutput('run_command', error).content).toMatch(
      /^run_command: the sandbox stopped: the sandbox container stopped while the command ran .*not for memory/,
    );
  });

  it('is an engine error when the engine answers but never said how the command ended', () => {
    expect(errorOf({ exitCode: undefined }).code).toBe('engine-error');
  });
});

describe('signals', () => {
  it.each([
    [137, 'SIGKILL'],
    [143, 'SIGTERM'],
    [130, 'SIGINT'],
    [139, 'SIGSEGV'],
    [159, 'SIGSYS'],
  ])('exit %i is %s', (exitCode, signal) => {
    expect(signalOfExitCode(exitCode)).toBe(signal);
    expect(128 + (signalNumber(signal) ?? 0)).toBe(exitCode);
  });

  it.each([0, 1, 127, 128, 160, 255, undefined])('exit %s is no signal', (exitCode) => {
    expect(signalOfExitCode(exitCode)).toBeUndefined();
  });
});
