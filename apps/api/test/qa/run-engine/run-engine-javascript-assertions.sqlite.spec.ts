import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import type { TestDatabase } from '@agentdesk/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
};

/** Custom assertions run in a real sandbox (the private test engine), one exec per cell. */
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

  it('passes, fails, throws, times out a loop and refuses the network, and every cell still finishes', async () => {
    const qa = await createLocalUser(database.repositories, 'quality');
    const repositories = app.api.repositories;
    const run = await createRun(repositories, qa.id, {
      name: 'javascript',
      targets: [{ model: 'gpt-test' }],
      cases: Object.entries(checks).map(([id, code]) => ({
        id,
        prompt: id,
        schema: answerSchema,
        assertions: [{ kind: 'javascript' as const, code, label: id }],
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
    expect(ended.counts).toMatchObject({ total: 6, passed: 1, failed: 5 });
  });
});
