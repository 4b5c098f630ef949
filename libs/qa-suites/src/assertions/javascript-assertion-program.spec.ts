import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JAVASCRIPT_ASSERTION_PROGRAM } from './javascript-assertion-program';

const run = promisify(execFile);

let directory: string;
let programFile: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'qa-assertions-'));
  programFile = join(directory, 'run-assertions.cjs');
  await writeFile(programFile, JAVASCRIPT_ASSERTION_PROGRAM);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface CheckResult {
  passed: boolean;
  message: string | null;
  durationMs: number;
}

/** Runs the program the way the sandbox does: `node <program> <requestFile>`. */
async function runChecks(output: unknown, codes: string[], timeoutMs = 200): Promise<CheckResult[]> {
  const requestFile = join(directory, `request-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    requestFile,
    JSON.stringify({ output, checks: codes.map((code) => ({ code })), timeoutMs }),
  );
  const { stdout } = await run(process.execPath, [programFile, requestFile]);
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as CheckResult[];
}

async function runOne(
  code: string,
  output: unknown = { total: 3, items: [1, 2] },
): Promise<Omit<CheckResult, 'durationMs'>> {
  const [result] = await runChecks(output, [code]);
  expect(result!.durationMs).toEqual(expect.any(Number));
  return { passed: result!.passed, message: result!.message };
}

describe('JAVASCRIPT_ASSERTION_PROGRAM', () => {
  it('passes on true and fails on false, one result per check in order', async () => {
    const results = await runChecks({ total: 3 }, ['return output.total === 3', 'return output.total > 3']);
    expect(results.map(({ passed, message }) => ({ passed, message }))).toEqual([
      { passed: true, message: null },
      { passed: false, message: 'returned false' },
    ]);
  });

  it('takes { pass, message }', async () => {
    expect(
      await runOne('return { pass: output.items.length === 3, message: "items: " + output.items.length }'),
    ).toEqual({
      passed: false,
      message: 'items: 2',
    });
    expect(await runOne('return { pass: true }')).toEqual({ passed: true, message: null });
  });

  it('fails a check that throws, with the error', async () => {
    expect(await runOne('throw new TypeError("no total")')).toEqual({
      passed: false,
      message: 'TypeError: no total',
    });
    expect(await runOne('return output.missing.deep')).toEqual({
      passed: false,
      message: expect.stringMatching(/^TypeError: /),
    });
  });

  it('fails a check that runs past its time, and runs the next one', async () => {
    const results = await runChecks({}, ['while (true) {}', 'return true']);
    expect(results.map(({ passed, message }) => ({ passed, message }))).toEqual([
      { passed: false, message: 'timed out after 200 ms' },
      { passed: true, message: null },
    ]);
  });

  it('keeps promise jobs and getters inside the time limit', async () => {
    expect(await runOne('Promise.resolve().then(() => { while (true) {} }); return true')).toEqual({
      passed: false,
      message: 'timed out after 200 ms',
    });
    expect(await runOne('return { get pass() { while (true) {} } }')).toEqual({
      passed: false,
      message: 'timed out after 200 ms',
    });
  });

  it('fails a check that returns something else, saying what it returned', async () => {
    expect(await runOne('return 42')).toEqual({
      passed: false,
      message: 'returned the number 42 instead of true, false or { pass, message }',
    });
    expect(await runOne('output.total')).toEqual({
      passed: false,
      message: 'returned undefined (no return?) instead of true, false or { pass, message }',
    });
    expect(await runOne('return { pass: "yes" }')).toEqual({
      passed: false,
      message: 'returned an object whose "pass" is a string, not true or false',
    });
    expect(await runOne('return Promise.resolve(true)')).toEqual({
      passed: false,
      message: 'returned a Promise: a check returns true, false or { pass, message } synchronously',
    });
  });

  it('fails a check that does not compile', async () => {
    expect(await runOne('return {')).toEqual({
      passed: false,
      message: expect.stringMatching(/^the code does not compile: /),
    });
  });

  it('reaches neither require, process nor the runner through the output or eval', async () => {
    expect(await runOne('return typeof require === "undefined" && typeof process === "undefined"')).toEqual({
      passed: true,
      message: null,
    });
    expect(await runOne('return output.constructor.constructor("return process")()')).toEqual({
      passed: false,
      message: expect.stringMatching(/^EvalError: Code generation from strings disallowed/),
    });
    expect(await runOne('return Object.getPrototypeOf(output) === Object.prototype')).toEqual({
      passed: true,
      message: null,
    });
    expect(
      await runOne(
        'return typeof globalThis.fetch === "undefined" && typeof globalThis.setTimeout === "undefined"',
      ),
    ).toEqual({
      passed: true,
      message: null,
    });
  });

  it('gives each check a fresh context', async () => {
    const results = await runChecks({}, [
      'globalThis.leak = 1; return true',
      'return typeof globalThis.leak === "undefined"',
    ]);
    expect(results.map((result) => result.passed)).toEqual([true, true]);
  });

  it('exits 2 on a request it cannot read', async () => {
    const requestFile = join(directory, 'bad.json');
    await writeFile(requestFile, '{"checks": "nope"}');
    await expect(run(process.execPath, [programFile, requestFile])).rejects.toMatchObject({ code: 2 });
  });
});
