import type { SuiteCase, SuiteDefinition, SuiteTarget } from '@agentdesk/api-contract';
import type { ChatMessage, JsonSchema } from '@agentdesk/providers';
import {
  cellVerdict,
  evaluateAssertions,
  type CellOutput,
  type JavaScriptAssertionRunner,
} from '@agentdesk/qa-suites';
import {
  CANCELLED_CELL_REASON,
  type JsonObject,
  type QaCellOutcome,
  type Repositories,
} from '@agentdesk/storage';
import type { Logger } from 'pino';
import { runTarget } from '../../shared/structured-output/run-target';
import { schemaNameOf } from '../../shared/structured-output/schema-name';
import { toStorableJson } from '../../shared/structured-output/storable-json';
import type { TargetResult } from '../../shared/structured-output/target-result';
import type { ModelRouter } from '../../model-access/model-router';
import { NO_TOKENS } from '../../shared/metering/metered-call';
import type { UsageMeter } from '../../shared/metering/usage-meter';
import { qaCellOrigin } from './cell-origin';
import type { CellDelivery, CellJob } from './cell-queue';
import { cellStopOf, CellStop, type CellStopReason } from './cell-stop';
import { startLeaseHeartbeat } from './lease-heartbeat';
import type { ProviderSlots } from './provider-slots';
import type { RunDirectory, RunUnderWay } from './run-directory';

/** Claims of one cell after which it is given up: its workers stopped this many times. */
export const MAX_CELL_ATTEMPTS = 3;
export const GIVEN_UP_REASON = `the worker running it stopped ${MAX_CELL_ATTEMPTS} times`;

export interface CellExecutorDependencies {
  readonly runs: Repositories['qaRuns'];
  readonly directory: RunDirectory;
  readonly router: Pick<ModelRouter, 'resolve'>;
  readonly usageMeter: Pick<UsageMeter, 'record' | 'prices'>;
  readonly slots: ProviderSlots;
  readonly runJavaScript: JavaScriptAssertionRunner;
  readonly logger: Pick<Logger, 'warn' | 'error'>;
  /** This replica's worker id, written on the cells it claims. */
  readonly workerId: string;
  readonly leaseMs: number;
}

function cellKey(cell: CellJob): string {
  return `${cell.runId}/${cell.caseIndex}/${cell.targetIndex}`;
}

function messagesOf(suiteCase: SuiteCase): ChatMessage[] {
  const system: ChatMessage[] =
    suiteCase.systemPrompt === undefined || suiteCase.systemPrompt === ''
      ? []
      : [{ role: 'system', content: suiteCase.systemPrompt }];
  if (suiteCase.messages !== undefined)
    return [
      ...system,
      ...suiteCase.messages.map((message) => ({ role: message.role, content: message.content })),
    ];
  return [...system, { role: 'user', content: suiteCase.prompt ?? '' }];
}

/** The slot line of a target: its run and provider (a model no route knows fails at once, in its own line). */
function slotKey(runId: string, router: Pick<ModelRouter, 'resolve'>, model: string): string {
  try {
    return `${runId}|${router.resolve(model).provider}`;
  } catch {
    return `${runId}|unrouted`;
  }
}

/**
 * Executes one cell on this replica: claim it under a lease (renewed while it runs), wait for a
 * slot of its run and provider, call the target as the lab does (the case's messages and schema,
 * the target's strict / temperature / max tokens), price and meter the call, judge the assertions
 * (JavaScript in the sandbox) and finish the cell. Finishing is guarded by the claim, so a cell is
 * counted once whatever happens to this worker.
 */
export class CellExecutor {
  /** Cells this replica holds, by key, with the controller that stops their work. */
  private readonly held = new Map<string, { readonly runId: string; readonly controller: AbortController }>();
  /** Set when the replica stops: no new cell is claimed, and one claimed meanwhile is released. */
  private closing = false;

  constructor(private readonly dependencies: CellExecutorDependencies) {}

  /** The queue's handler. Never rejects: what goes wrong is logged, and the cell's row says what became of it. */
  readonly execute = async (job: CellJob, delivery: CellDelivery): Promise<void> => {
    try {
      await this.claimAndRun(job, delivery);
    } catch (error) {
      this.dependencies.logger.error({ err: error, cell: job }, 'a QA suite cell failed unexpectedly');
    } finally {
      delivery.acknowledge();
    }
  };

  /** Stops the work of every cell of `runId` on this replica (the run was cancelled). */
  stopRun(runId: string, reason: CellStopReason): void {
    for (const cell of this.held.values())
      if (cell.runId === runId) cell.controller.abort(new CellStop(reason));
  }

  /** Stops the work of every cell on this replica, which takes no more (it is shutting down). */
  shutDown(): void {
    this.closing = true;
    for (const cell of this.held.values()) cell.controller.abort(new CellStop('shutdown'));
  }

  /** Cells this replica holds now. */
  get cellsHeld(): number {
    return this.held.size;
  }

  private async claimAndRun(job: CellJob, delivery: CellDelivery): Promise<void> {
    const { runs, workerId, leaseMs, logger } = this.dependencies;
    if (this.closing) {
      // Not claimed, so not decided: acknowledged, the job would be gone while its cell stays
      // pending, and live replicas re-enqueue only expired claims. Another replica takes it.
      delivery.retry();
      return;
    }
    let claimed: Awaited<ReturnType<typeof runs.claimCell>>;
    try {
      claimed = await runs.claimCell(job.runId, job.caseIndex, job.targetIndex, workerId, leaseMs);
    } catch (error) {
      // Acknowledged, this job would be gone while its cell stays pending: deliver it again.
      delivery.retry();
      throw error;
    }
    delivery.acknowledge();
    if (claimed === undefined) return; // finished, held by a live worker, or its run is over
    if (claimed.attempts > MAX_CELL_ATTEMPTS) {
      await runs.giveUpCell(job.runId, job.caseIndex, job.targetIndex, GIVEN_UP_REASON);
      return;
    }
    const key = cellKey(job);
    const controller = new AbortController();
    this.held.set(key, { runId: job.runId, controller });
    if (this.closing) controller.abort(new CellStop('shutdown'));
    const heartbeat = startLeaseHeartbeat(runs, job, workerId, leaseMs, controller, logger);
    try {
      const outcome = await this.run(job, controller.signal).catch(async (error: unknown) => {
        if (cellStopOf(controller.signal) !== undefined) return undefined;
        logger.error(
          { err: error, cell: job },
          'a QA suite cell failed unexpectedly; it is recorded as an error',
        );
        return errorOutcome('the cell failed unexpectedly; the error was logged');
      });
      heartbeat.stop();
      await this.settle(job, controller.signal, outcome);
    } finally {
      heartbeat.stop();
      this.held.delete(key);
    }
  }

  /** Writes what became of a held cell: its outcome, cancelled, nothing (lost), or a released claim. */
  private async settle(job: CellJob, signal: AbortSignal, outcome: QaCellOutcome | undefined): Promise<void> {
    const { runs, workerId } = this.dependencies;
    const stop = cellStopOf(signal);
    const finish = (result: QaCellOutcome) =>
      runs.finishCell(job.runId, job.caseIndex, job.targetIndex, workerId, result);
    switch (stop) {
      case undefined:
        if (outcome !== undefined) await finish(outcome);
        return;
      case 'cancelled':
        await finish(cancelledOutcome());
        return;
      case 'lease-lost':
        return;
      case 'shutdown': {
        // A lease of zero: the cell is free at once for another replica or the next start.
        const state = await runs.extendLease(job.runId, job.caseIndex, job.targetIndex, workerId, 0);
        if (state === 'cancelled') await finish(cancelledOutcome());
        return;
      }
    }
  }

  private async run(job: CellJob, signal: AbortSignal): Promise<QaCellOutcome | undefined> {
    const { directory, slots, router } = this.dependencies;
    const underWay = await directory.get(job.runId);
    const suiteCase = underWay.definition.cases[job.caseIndex];
    const target = underWay.definition.targets[job.targetIndex];
    if (suiteCase === undefined || target === undefined)
      return errorOutcome(`the suite version has no case ${job.caseIndex} or no target ${job.targetIndex}`);
    const release = await slots.acquire(
      slotKey(job.runId, router, target.model),
      underWay.concurrency,
      signal,
    );
    let result: TargetResult;
    try {
      result = await this.callTarget(underWay.definition, suiteCase, target, signal);
    } finally {
      release();
    }
    if (signal.aborted) return undefined;
    this.meter(underWay, result);
    const costMicros = this.costOf(result);
    const output: CellOutput = {
      status: result.status,
      json: result.json,
      validation:
        result.validation === null
          ? null
          : {
              valid: result.validation.valid,
              errors: result.validation.errors.map((error) => ({
                path: error.path,
                keyword: error.keyword,
                message: error.message,
              })),
            },
      latencyMs: result.latencyMs,
      costMicros,
      ...(result.error !== undefined && { errorMessage: result.error.message }),
    };
    const assertions = await evaluateAssertions(
      output,
      suiteCase.assertions,
      this.dependencies.runJavaScript,
    );
    const verdict = cellVerdict(output, assertions);
    return {
      status: verdict.status,
      latencyMs: result.latencyMs,
      costMicros,
      inputTokens: result.usage?.inputTokens ?? null,
      outputTokens: result.usage?.outputTokens ?? null,
      failedKinds: verdict.failedKinds,
      reason: verdict.reason,
      result: toStorableJson({ ...result, costMicros, assertions }) as JsonObject,
    };
  }

  private callTarget(
    definition: SuiteDefinition,
    suiteCase: SuiteCase,
    target: SuiteTarget,
    signal: AbortSignal,
  ): Promise<TargetResult> {
    const { router, logger } = this.dependencies;
    return runTarget(
      { router, logger },
      {
        model: target.model,
        schema: suiteCase.schema as JsonSchema,
        schemaName: schemaNameOf(suiteCase.id),
        strict: target.strict,
        messages: messagesOf(suiteCase),
        timeoutMs: definition.timeoutMs,
        ...(target.temperature !== undefined && { temperature: target.temperature }),
        ...(target.maxTokens !== undefined && { maxTokens: target.maxTokens }),
        signal,
      },
    );
  }

  /** Records the call like the lab's; a target refused before any call (routing, schema) used no model. */
  private meter(underWay: RunUnderWay, result: TargetResult): void {
    const kind = result.error?.kind;
    if (kind === 'routing' || kind === 'schema-lowering') return;
    this.dependencies.usageMeter.record(
      qaCellOrigin(underWay.run.createdBy, result.model, result.provider),
      result.status === 'ok' ? 'ok' : 'failed',
      result.usage ?? NO_TOKENS,
      result.latencyMs,
    );
  }

  /** The call's cost with the price in effect now, kept with the cell (a later price changes nothing). */
  private costOf(result: TargetResult): number | null {
    return this.dependencies.usageMeter.prices.costOf(result.model, {
      input: result.usage?.inputTokens ?? 0,
      output: result.usage?.outputTokens ?? 0,
      thinking: result.usage?.thinkingTokens ?? 0,
      cached: result.usage?.cachedInputTokens ?? 0,
    }).costMicros;
  }
}

function errorOutcome(reason: string): QaCellOutcome {
  return {
    status: 'error',
    latencyMs: null,
    costMicros: null,
    inputTokens: null,
    outputTokens: null,
    failedKinds: [],
    reason,
    result: null,
  };
}

function cancelledOutcome(): QaCellOutcome {
  return { ...errorOutcome(CANCELLED_CELL_REASON), status: 'cancelled' };
}
