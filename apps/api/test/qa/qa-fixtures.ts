import type { Repositories } from '@agentdesk/storage';
import type { TestApi } from '../support/test-api';

export const suitesUrl = '/v1/qa/suites';
export const runsUrl = '/v1/qa/runs';

/** A schema every provider takes, with an enum the emulator can get wrong. */
export const ticketSchema = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['billing', 'bug', 'other'] },
    urgent: { type: 'boolean' },
  },
  required: ['category', 'urgent'],
  additionalProperties: false,
};

/** A small suite: two targets, three cases, a few assertion kinds. */
export function ticketSuite(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: 'Support-ticket triage',
    targets: [{ model: 'gpt-test' }, { model: 'claude-test', label: 'claude', temperature: 0 }],
    cases: [
      {
        id: 'refund',
        prompt: 'I was charged twice, please refund me',
        schema: ticketSchema,
        assertions: [{ kind: 'equals', pointer: '/category', value: 'billing' }],
      },
      {
        id: 'crash',
        systemPrompt: 'Triage the ticket.',
        prompt: 'The app crashes on start',
        schema: ticketSchema,
        assertions: [{ kind: 'one-of', pointer: '/category', values: ['bug', 'other'] }],
      },
      {
        id: 'hello',
        messages: [{ role: 'user', content: 'Hello there' }],
        schema: ticketSchema,
        assertions: [{ kind: 'latency', maxMs: 60_000 }],
      },
    ],
    ...overrides,
  };
}

/** What a worker stores for a cell: the target's result and the assertions' outcomes. */
export function cellResult(model: string, json: unknown, passed: boolean): Record<string, unknown> {
  return {
    model,
    provider: 'openai',
    status: 'ok',
    schemaTarget: 'openai-strict',
    loweredSchema: ticketSchema,
    changes: [],
    warnings: [],
    request: { model },
    rawOutput: JSON.stringify(json),
    json,
    validation: { valid: true, errors: [] },
    finishReason: 'stop',
    usage: { inputTokens: 10, outputTokens: 5, thinkingTokens: 0, cachedInputTokens: 0 },
    costMicros: 12,
    latencyMs: 40,
    attempts: 1,
    assertions: [
      { kind: 'schema', label: 'valid against the schema', passed: true, message: null },
      { kind: 'equals', label: '/category equals "billing"', passed, message: passed ? null : 'got "bug"' },
    ],
  };
}

export type CellStatusToWrite = 'passed' | 'failed' | 'error';

/**
 * Finishes every cell of a run through the repository, as a worker would (claim, then finish): so
 * what reads runs is tested apart from the run engine. `statusOf` picks each cell's outcome.
 */
export async function finishCells(
  repositories: Repositories,
  runId: string,
  statusOf: (caseId: string, targetIndex: number) => CellStatusToWrite,
  only?: (caseId: string, targetIndex: number) => boolean,
): Promise<void> {
  for (const cell of await repositories.qaRuns.unfinishedCells(runId)) {
    if (only !== undefined && !only(cell.caseId, cell.targetIndex)) continue;
    const worker = 'test-worker';
    const claimed = await repositories.qaRuns.claimCell(
      runId,
      cell.caseIndex,
      cell.targetIndex,
      worker,
      60_000,
    );
    if (claimed === undefined)
      throw new Error(`cell ${cell.caseId}/${cell.targetIndex} could not be claimed`);
    const status = statusOf(cell.caseId, cell.targetIndex);
    const category = status === 'passed' ? 'billing' : 'bug';
    const finished = await repositories.qaRuns.finishCell(runId, cell.caseIndex, cell.targetIndex, worker, {
      status,
      latencyMs: 40,
      costMicros: 12,
      inputTokens: 10,
      outputTokens: 5,
      failedKinds: status === 'failed' ? ['equals'] : [],
      reason: status === 'error' ? 'the provider answered 500' : null,
      result:
        status === 'error'
          ? null
          : (cellResult(
              cell.targetIndex === 0 ? 'gpt-test' : 'claude-test',
              { category, urgent: false },
              status === 'passed',
            ) as never),
    });
    if (!finished) throw new Error(`cell ${cell.caseId}/${cell.targetIndex} could not be finished`);
  }
}

/** A run of a suite version stored directly (no engine picks it up: its cells wait for `finishCells`). */
export async function storedRun(
  test: TestApi,
  suite: {
    id: string;
    latestVersion: number;
    current: { definition: { cases: Array<{ id: string }>; targets: unknown[] } };
  },
  createdBy: string,
): Promise<string> {
  const { cases, targets } = suite.current.definition;
  const run = await test.api.repositories.qaRuns.create({
    suiteId: suite.id,
    suiteVersion: suite.latestVersion,
    createdBy,
    options: {},
    cells: cases.flatMap((suiteCase, caseIndex) =>
      targets.map((_target, targetIndex) => ({ caseIndex, targetIndex, caseId: suiteCase.id })),
    ),
  });
  return run.id;
}
