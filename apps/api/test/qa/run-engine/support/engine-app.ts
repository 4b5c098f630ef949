import type { SuiteDefinitionInput } from '@agentdesk/api-contract';
import { suiteDefinitionSchema } from '@agentdesk/api-contract';
import type { ProviderEmulator } from '@agentdesk/provider-emulator';
import type { AppDatabase, JsonObject, QaRunCell, QaSuiteRun, Repositories } from '@agentdesk/storage';
import { expect } from 'vitest';
import { loadConfig } from '../../../../src/config/app-config';
import { createApp, type AgentDeskApi } from '../../../../src/create-app';
import { SuiteRunEngine } from '../../../../src/qa/run-engine';
import { LogCapture } from '../../../support/log-capture';
import { emulatorEnvironment } from '../../../support/provider-emulator';
import { baseTestEnvironment } from '../../../support/test-api';
import { waitFor as pollUntil, type WaitOptions } from '../../../support/wait-for';

/** An API over a database the test owns, so a second one can start on it after the first stops. */
export interface EngineApp {
  readonly api: AgentDeskApi;
  readonly logs: LogCapture;
  readonly engine: SuiteRunEngine;
  close(): Promise<void>;
}

export async function startEngineApp(
  database: AppDatabase,
  emulator: ProviderEmulator,
  environment: Record<string, string> = {},
): Promise<EngineApp> {
  const logs = new LogCapture();
  const config = loadConfig({ ...baseTestEnvironment, ...emulatorEnvironment(emulator), ...environment });
  // The real clock: leases are compared with the time the engine sees.
  const api = await createApp(config, { database, logDestination: logs });
  return { api, logs, engine: api.app.get(SuiteRunEngine), close: () => api.close() };
}

/** The three emulated providers, one target each. */
export const threeTargets = [{ model: 'gpt-test' }, { model: 'claude-test' }, { model: 'gemini-test' }];

export const answerSchema = {
  type: 'object',
  properties: {
    answer: { type: 'string', enum: ['yes'] },
    score: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['answer', 'score'],
  additionalProperties: false,
};

/** A suite saved at version 1 and a run of it with every cell pending (not enqueued). */
export async function createRun(
  repositories: Repositories,
  createdBy: string,
  input: SuiteDefinitionInput,
  options: JsonObject = {},
): Promise<QaSuiteRun> {
  const definition = suiteDefinitionSchema.parse(input);
  const { suite } = await repositories.qaSuites.create({
    name: definition.name,
    description: null,
    definition: definition as unknown as JsonObject,
    caseCount: definition.cases.length,
    targetCount: definition.targets.length,
    createdBy,
    note: null,
  });
  return repositories.qaRuns.create({
    suiteId: suite.id,
    suiteVersion: 1,
    createdBy,
    options,
    cells: definition.cases.flatMap((suiteCase, caseIndex) =>
      definition.targets.map((_target, targetIndex) => ({ caseIndex, targetIndex, caseId: suiteCase.id })),
    ),
  });
}

/** Every cell of a run, as `{caseIndex, targetIndex}` for `SuiteRunEngine.enqueue`. */
export function allCells(run: QaSuiteRun, targetCount: number): { caseIndex: number; targetIndex: number }[] {
  return Array.from({ length: run.counts.total }, (_, index) => ({
    caseIndex: Math.floor(index / targetCount),
    targetIndex: index % targetCount,
  }));
}

/** Runs of many cells end slowly on a loaded machine: two minutes' patience (4,800 polls of 25 ms). */
const runPatience = 4_800;

/** `waitFor` with a run's patience by default. */
export function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  options: WaitOptions = {},
): Promise<T> {
  return pollUntil(probe, what, { attempts: runPatience, ...options });
}

/**
 * What a run looks like to someone finding out why it did not end: its counters, and each
 * unfinished cell with its status, who claims it, its lease (relative to now) and attempts.
 */
export async function describeRun(repositories: Repositories, runId: string): Promise<unknown> {
  const now = Date.now();
  const run = await repositories.qaRuns.get(runId);
  const cells = await repositories.qaRuns.cells(runId);
  return {
    status: run.status,
    counts: run.counts,
    unfinishedCells: cells
      .filter((cell) => cell.finishedAt === null)
      .map((cell) => ({
        cell: `${cell.caseIndex}/${cell.targetIndex}`,
        status: cell.status,
        claimedBy: cell.claimedBy,
        leaseMsFromNow: cell.leaseUntil === null ? null : cell.leaseUntil.getTime() - now,
        attempts: cell.attempts,
      })),
  };
}

/** Waits for the run to leave `running` with every cell counted; at the deadline, prints its cells. */
export function waitForRunEnd(
  repositories: Repositories,
  runId: string,
  options: WaitOptions = {},
): Promise<QaSuiteRun> {
  return waitFor(
    async () => {
      const run = await repositories.qaRuns.get(runId);
      return run.status !== 'running' && run.counts.done === run.counts.total ? run : undefined;
    },
    `run ${runId} to end`,
    { state: () => describeRun(repositories, runId), ...options },
  );
}

/**
 * The invariant of every run that ended: each cell finished once, and the run's counters are
 * exactly the cells' states (a cell counted twice, or never, breaks the equality).
 */
export function expectCountsMatchCells(run: QaSuiteRun, cells: readonly QaRunCell[]): void {
  const count = (status: QaRunCell['status']) => cells.filter((cell) => cell.status === status).length;
  expect(cells).toHaveLength(run.counts.total);
  expect(count('pending') + count('running')).toBe(0);
  expect(run.counts).toEqual({
    total: cells.length,
    done: cells.length,
    passed: count('passed'),
    failed: count('failed'),
    errored: count('error'),
    cancelled: count('cancelled'),
  });
  for (const cell of cells) expect(cell.finishedAt).not.toBeNull();
}
