import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import type { TestDatabase } from '@agentdesk/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSERTION_SANDBOX_SESSION_ID } from '../../../src/qa/run-engine';
import { SandboxRuntime } from '../../../src/shared/sandbox-runtime/sandbox-runtime';
import { testDatabaseFactories } from '../../support/engines';
import { createLocalUser } from '../../support/fixtures';
import { sandboxTestEnvironment } from '../../support/sandbox-environment';
import {
  allCells,
  answerSchema,
  createRun,
  expectCountsMatchCells,
  startEngineApp,
  waitForRunEnd,
  type EngineApp,
} from './support/engine-app';

const checks = {
  passes: "return output.answer === 'yes'",
  fails: "return { pass: false, message: 'score ' + output.score + ' is not 7' }",
  throws: "throw new Error('boom')",
  loops: 'while (true) {}',
  network: "return fetch('http://example.com').then(() => true)",
  'network-require': "const http = require('node:http'); return true",
  'memory-hog': 'const kept = []; for (;;) kept.push(new Array(1e6).fill(1))',
  // Five of these (the longest code a check may have) are too long for the runner's command line
  // together: the request goes in as a file.
  'long-code': `return true; // ${'x'.repeat(19_000)}`,
  'after-the-hog': "return output.answer === 'yes' || output.answer !== 'yes'",
};

/** Custom assertions run in a real sandbox (the private test engine), by its resident runner. */
describe('QA suite JavaScript assertions in the sandbox (sqlite)', () => {
  let database: TestDatabase;
  let emulator: ProviderEmulator;
  let app: EngineApp;

  beforeAll(async () => {
    database = await testDatabaseFactories.sqlite();
    emulator = await startProviderEmulator();
    app = await startEngineApp(database.database, emulator, {
      ...sandboxTestEnvironment('qa-assertions', 'sqlite'),
      AGENTDESK_SANDBOX_WARM_POOL: '0',
    });
    await app.api.app.get(SandboxRuntime).whenStarted();
  });
  afterAll(async () => {
    const service = app?.api.app.get(SandboxRuntime).service;
    for (const container of (await service?.listContainers()) ?? [])
      await service?.engine.removeContainer(container.id);
    await app?.close();
    await emulator?.close();
    await database?.cleanup();
  });

  it('passes, fails, throws, times out a loop, refuses the network, survives a memory hog, and every cell still finishes', async () => {
    const qa = await createLocalUser(database.repositories, 'quality');
    const repositories = app.api.repositories;
    const run = await createRun(repositories, qa.id, {
      name: 'javascript',
      targets: [{ model: 'gpt-test' }],
      cases: Object.entries(checks).map(([id, code]) => ({
        id,
        prompt: id,
        schema: answerSchema,
        assertions: Array.from({ length: id === 'long-code' ? 5 : 1 }, () => ({
          kind: 'javascript' as const,
          code,
          label: id,
        })),
      })),
    });
    await app.engine.enqueue(run.id, allCells(run, 1));
    const ended = await waitForRunEnd(repositories, run.id);
    expectCountsMatchCells(ended, await repositories.qaRuns.cells(run.id));
    const outcomes = new Map<string, { passed: boolean | null; message: string | null }>();
    for (const [caseIndex, id] of Object.keys(checks).entries()) {
      const cell = await repositories.qaRuns.cell(run.id, caseIndex, 0);
      const assertions = cell.result?.['assertions'] as {
        kind: string;
        passed: boolean | null;
        message: string | null;
      }[];
      outcomes.set(
        id,
        assertions.find((assertion) => assertion.kind === 'javascript')!,
      );
    }
    expect(outcomes.get('passes')).toMatchObject({ passed: true });
    expect(outcomes.get('fails')).toMatchObject({
      passed: false,
      message: expect.stringMatching(/^score \d is not 7$/),
    });
    expect(outcomes.get('throws')).toMatchObject({ passed: false, message: 'Error: boom' });
    expect(outcomes.get('loops')).toMatchObject({
      passed: false,
      message: expect.stringMatching(/timed out/),
    });
    expect(outcomes.get('network')).toMatchObject({
      passed: false,
      message: expect.stringMatching(/fetch is not defined/),
    });
    expect(outcomes.get('network-require')).toMatchObject({
      passed: false,
      message: expect.stringMatching(/require is not defined/),
    });
    // The hog kills the resident runner (its heap is capped): its own checks are unjudged, the
    // cells after it are judged by a new runner. Filling 128 MB takes about 0.3 s of CPU: on a
    // loaded machine the check's 1 s (wall clock) limit can stop it first, a failed check — either
    // way it is not passed and the next cell is judged. (The runner's death out of heap is proved
    // without a clock in javascript-assertion-server.spec.ts.)
    const hog = outcomes.get('memory-hog');
    if (hog?.passed === false) expect(hog.message).toBe('timed out after 1000 ms');
    else expect(hog).toMatchObject({ passed: null, message: expect.stringMatching(/ran out of memory/) });
    expect(outcomes.get('after-the-hog')).toMatchObject({ passed: true });
    expect(outcomes.get('long-code')).toMatchObject({ passed: true });
    expect(ended.counts).toMatchObject({ total: 9, passed: 3 });
  });

  it('judges again after the runner is killed and after its container is removed behind its back', async () => {
    const qa = await createLocalUser(database.repositories, 'quality-again');
    const repositories = app.api.repositories;
    const service = app.api.app.get(SandboxRuntime).service!;
    const runOnce = async (name: string) => {
      const run = await createRun(repositories, qa.id, {
        name,
        targets: [{ model: 'gpt-test' }],
        cases: [1, 2, 3].map((index) => ({
          id: `case-${index}`,
          prompt: 'any',
          schema: answerSchema,
          assertions: [{ kind: 'javascript' as const, code: `return ${index} === ${index}` }],
        })),
      });
      await app.engine.enqueue(run.id, allCells(run, 1));
      const ended = await waitForRunEnd(repositories, run.id);
      const verdicts = [];
      for (const caseIndex of [0, 1, 2]) {
        const cell = await repositories.qaRuns.cell(run.id, caseIndex, 0);
        const assertions = cell.result?.['assertions'] as {
          kind: string;
          passed: boolean | null;
          message: string | null;
        }[];
        const judged = assertions.find((assertion) => assertion.kind === 'javascript');
        // The message travels with the verdict: a failure here says why the check went unjudged.
        verdicts.push(judged?.passed === true ? true : `${judged?.passed}: ${judged?.message}`);
      }
      return { ended, verdicts };
    };
    expect((await runOnce('warm')).verdicts).toEqual([true, true, true]);

    // kill -9 of the resident runner, from inside its container
    const sandbox = service.forSession(ASSERTION_SANDBOX_SESSION_ID);
    const killed = await sandbox.exec({
      command: 'for f in .qa/s-*/pid; do read -r pid < $f; kill -9 $pid; done; echo done',
    });
    expect(killed.stdout.text.trim()).toBe('done');
    expect((await runOnce('after-kill')).verdicts).toEqual([true, true, true]);

    // docker rm -f of the container the runner lives in
    for (const container of await service.listContainers())
      await service.engine.removeContainer(container.id);
    expect((await runOnce('after-remove')).verdicts).toEqual([true, true, true]);
  });
});
