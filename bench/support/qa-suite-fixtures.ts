/**
 * What bench/qa-suites.ts runs and reads: suites of support-ticket triage cases on the three
 * emulated providers, a client of the QA routes (with a Server-Sent Events reader that waits for a
 * run's `finished` event), and two finished runs written straight through the repositories.
 */
import { performance } from 'node:perf_hooks';
import type { SuiteDefinitionInput, SuiteJson, SuiteRunJson } from '@agentdesk/api-contract';
import type { JsonObject, Repositories } from '@agentdesk/storage';

/** The three emulated providers, one target each (models routed by prefix). */
export const threeTargets = [{ model: 'gpt-test' }, { model: 'claude-test' }, { model: 'gemini-test' }];

/** A schema every provider takes: an enum, a boolean, a bounded integer, an array and a string. */
export const ticketSchema = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['billing', 'bug', 'account', 'other'] },
    urgent: { type: 'boolean' },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' } },
    summary: { type: 'string' },
  },
  required: ['category', 'urgent', 'priority', 'tags', 'summary'],
  additionalProperties: false,
};

const topics = ['a double charge', 'a crash on start', 'a locked account', 'a missing invoice', 'slow pages'];

/** The prompt of case `index`: a ticket of a realistic size (~60 tokens). */
export function ticketPrompt(index: number): string {
  return (
    `Ticket #${10_000 + index}: the customer writes about ${topics[index % topics.length]}. ` +
    'They have tried logging out and in again, cleared the cache and waited a day; nothing changed. ' +
    'Classify the ticket, say whether it is urgent, give a priority from 1 to 5, a few tags and a one-line summary.'
  );
}

/** `caseCount` triage cases with declarative assertions (and `javascript`, one per case, when given). */
export function triageSuite(
  name: string,
  caseCount: number,
  options: { targets?: SuiteDefinitionInput['targets']; javascript?: string } = {},
): SuiteDefinitionInput {
  return {
    name,
    description: 'Support-ticket triage (bench)',
    targets: options.targets ?? threeTargets,
    cases: Array.from({ length: caseCount }, (_, index) => ({
      id: `ticket-${index}`,
      systemPrompt: 'You triage support tickets.',
      prompt: ticketPrompt(index),
      schema: ticketSchema,
      assertions: [
        { kind: 'one-of' as const, pointer: '/category', values: ['billing', 'bug', 'account', 'other'] },
        { kind: 'range' as const, pointer: '/priority', min: 1, max: 5 },
        { kind: 'length' as const, pointer: '/tags', max: 10 },
        { kind: 'latency' as const, maxMs: 30_000 },
        ...(options.javascript === undefined
          ? []
          : [{ kind: 'javascript' as const, code: options.javascript }]),
      ],
    })),
  };
}

export interface QaClient {
  readonly url: string;
  readonly key: string;
}

export async function callQa<T>(client: QaClient, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${client.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export function createSuite(client: QaClient, definition: SuiteDefinitionInput): Promise<SuiteJson> {
  return callQa<SuiteJson>(client, 'POST', '/v1/qa/suites', { definition });
}

/** Reads `/v1/qa/runs/:id/events` until the `finished` event; resolves with the time it arrived. */
export async function waitForFinishedEvent(client: QaClient, runId: string): Promise<number> {
  const response = await fetch(`${client.url}/v1/qa/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${client.key}`, accept: 'text/event-stream' },
  });
  if (!response.ok || response.body === null)
    throw new Error(`events of run ${runId} answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end !== -1) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (/^event: finished$/m.test(frame)) {
        const finishedAt = performance.now();
        await response.body.cancel().catch(() => undefined);
        return finishedAt;
      }
      end = buffered.indexOf('\n\n');
    }
  }
  throw new Error(`the events of run ${runId} ended without "finished"`);
}

/** Starts a run and follows it to its end, as the console and the CLI do. */
export async function runToEnd(
  client: QaClient,
  suiteId: string,
): Promise<{ run: SuiteRunJson; clientMs: number; serverMs: number }> {
  const started = performance.now();
  const { id } = await callQa<SuiteRunJson>(client, 'POST', `/v1/qa/suites/${suiteId}/runs`, {});
  const finished = await waitForFinishedEvent(client, id);
  const run = await callQa<SuiteRunJson>(client, 'GET', `/v1/qa/runs/${id}`);
  if (run.status !== 'completed' || run.counts.done !== run.counts.total)
    throw new Error(`run ${id} ended ${run.status} with ${run.counts.done}/${run.counts.total} cells`);
  return {
    run,
    clientMs: finished - started,
    serverMs: Date.parse(run.finishedAt!) - Date.parse(run.createdAt),
  };
}

type SeededStatus = 'passed' | 'failed' | 'error';

/** A deterministic spread of outcomes: ~85 % passed, ~10 % failed, ~5 % errors, different per `seed`. */
function statusOf(seed: number, caseIndex: number, targetIndex: number): SeededStatus {
  const value = (Math.imul(caseIndex * 31 + targetIndex * 7 + seed * 977, 2_654_435_761) >>> 0) % 100;
  return value < 85 ? 'passed' : value < 95 ? 'failed' : 'error';
}

/** What a worker stores for a cell (about 1 KB, the size of a small real answer with its request). */
function cellResult(model: string, passed: boolean): JsonObject {
  const json = {
    category: passed ? 'billing' : 'bug',
    urgent: false,
    priority: 3,
    tags: ['refund'],
    summary: 'Charged twice.',
  };
  return {
    model,
    provider: 'openai',
    status: 'ok',
    schemaTarget: 'openai-strict',
    loweredSchema: ticketSchema,
    changes: [],
    warnings: [],
    request: { model, messages: [{ role: 'user', content: ticketPrompt(1) }] },
    rawOutput: JSON.stringify(json),
    json,
    validation: { valid: true, errors: [] },
    finishReason: 'stop',
    usage: { inputTokens: 80, outputTokens: 30, thinkingTokens: 0, cachedInputTokens: 0 },
    costMicros: 12,
    latencyMs: 40,
    attempts: 1,
    assertions: [
      { kind: 'schema', label: 'valid against the schema', passed: true, message: null },
      { kind: 'one-of', label: '/category is one of 4 values', passed, message: passed ? null : 'got "bug"' },
    ],
  };
}

/**
 * A finished run of `suite` written through the repositories as workers would (claim, then finish
 * every cell), outcomes spread by `seed`: two seeds give regressions, fixes and unchanged cells.
 */
export async function storeFinishedRun(
  repositories: Repositories,
  suite: SuiteJson,
  seed: number,
): Promise<string> {
  const { cases, targets } = suite.current.definition;
  const run = await repositories.qaRuns.create({
    suiteId: suite.id,
    suiteVersion: suite.latestVersion,
    createdBy: suite.createdBy,
    options: {},
    cells: cases.flatMap((suiteCase, caseIndex) =>
      targets.map((_target, targetIndex) => ({ caseIndex, targetIndex, caseId: suiteCase.id })),
    ),
  });
  const worker = 'bench-worker';
  for (const [caseIndex] of cases.entries()) {
    for (const [targetIndex, target] of targets.entries()) {
      const claimed = await repositories.qaRuns.claimCell(run.id, caseIndex, targetIndex, worker, 600_000);
      if (claimed === undefined)
        throw new Error(`cell ${caseIndex}/${targetIndex} of ${run.id} could not be claimed`);
      const status = statusOf(seed, caseIndex, targetIndex);
      const finished = await repositories.qaRuns.finishCell(run.id, caseIndex, targetIndex, worker, {
        status,
        latencyMs: 40 + ((caseIndex * 13 + targetIndex) % 200),
        costMicros: 12,
        inputTokens: 80,
        outputTokens: 30,
        failedKinds: status === 'failed' ? ['one-of'] : [],
        reason: status === 'error' ? 'the provider answered 500' : null,
        result: status === 'error' ? null : cellResult(target.model, status === 'passed'),
      });
      if (!finished) throw new Error(`cell ${caseIndex}/${targetIndex} of ${run.id} could not be finished`);
    }
  }
  const stored = await repositories.qaRuns.get(run.id);
  if (stored.status !== 'completed')
    throw new Error(`run ${run.id} is ${stored.status} after every cell finished`);
  return run.id;
}
