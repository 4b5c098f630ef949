import type { Principal } from '@agentdesk/authz';
import {
  targetLabel,
  type CellComparisonJson,
  type CellJson,
  type RunComparisonJson,
  type SuiteDefinition,
  type SuiteRunJson,
  type SuiteRunSummaryJson,
} from '@agentdesk/api-contract';
import { compareRuns, jsonDiff } from '@agentdesk/qa-suites';
import {
  isStorageError,
  StorageErrorCode,
  type Page,
  type PageRequest,
  type QaSuiteRun,
  type Repositories,
} from '@agentdesk/storage';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import type { Against } from './qa-inputs';
import type { RunProgressSource } from './run-progress-stream';
import { SuiteRunEngine } from './run-engine';
import { SuiteDefinitions } from './suite-definitions';
import { definitionOf } from './suite-json';
import { toCellJson, toCellSummaryJson, toSuiteRunJson, toSuiteRunSummaryJson } from './suite-run-json';

/** Most cells one run may hold (cases × targets): beyond it, split the suite. */
export const MAX_RUN_CELLS = 20_000;

/** A run with what it needs to be shown: its suite's name and the definition it ran. */
interface LoadedRun {
  readonly run: QaSuiteRun;
  readonly suiteName: string;
  readonly definition: SuiteDefinition;
}

function rethrowNotFound(message: string): (error: unknown) => never {
  return (error) => {
    throw isStorageError(error) && error.code === StorageErrorCode.NotFound
      ? new ApiError(ApiErrorCode.NotFound, message)
      : error;
  };
}

/**
 * Runs of suites: started here (every cell stored pending, then handed to the run engine, which
 * works them on any replica), read as a matrix, followed live, cancelled, and compared with an
 * earlier run of the same suite.
 */
@Injectable()
export class QaRuns implements BeforeApplicationShutdown {
  readonly #stopping = new AbortController();
  private readonly definitions: SuiteDefinitions;

  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(SuiteRunEngine) private readonly engine: SuiteRunEngine,
  ) {
    this.definitions = new SuiteDefinitions(repositories.qaSuites);
  }

  /** Aborted when the app stops: progress streams end so the server can close. */
  get stopping(): AbortSignal {
    return this.#stopping.signal;
  }

  beforeApplicationShutdown(): void {
    this.#stopping.abort();
  }

  /** Stores a run of one version (the latest when absent) with every cell pending, and enqueues its cells. */
  async start(
    principal: Principal,
    suiteId: string,
    body: { version?: number | undefined; concurrency?: number | undefined },
  ): Promise<SuiteRunJson> {
    const suite = await this.repositories.qaSuites.get(suiteId);
    const versionNumber = body.version ?? suite.latestVersion;
    const version = await this.repositories.qaSuites
      .version(suite.id, versionNumber)
      .catch(rethrowNotFound(`Suite ${suite.id} has no version ${versionNumber}`));
    const definition = definitionOf(version);
    const total = definition.cases.length * definition.targets.length;
    if (total > MAX_RUN_CELLS)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        `body.version: version ${versionNumber} has ${total} cells (cases × targets); a run may have at most ${MAX_RUN_CELLS}`,
      );
    const cells = definition.cases.flatMap((suiteCase, caseIndex) =>
      definition.targets.map((_target, targetIndex) => ({ caseIndex, targetIndex, caseId: suiteCase.id })),
    );
    const run = await this.repositories.qaRuns.create({
      suiteId: suite.id,
      suiteVersion: version.version,
      createdBy: principal.id,
      options: body.concurrency === undefined ? {} : { concurrency: body.concurrency },
      cells,
    });
    await this.engine.enqueue(
      run.id,
      cells.map(({ caseIndex, targetIndex }) => ({ caseIndex, targetIndex })),
    );
    return this.runJson({ run, suiteName: suite.name, definition });
  }

  async get(runId: string): Promise<SuiteRunJson> {
    return this.runJson(await this.load(runId));
  }

  /** A suite's runs, newest first, each with its counts and per-target pass rates. */
  async listForSuite(suiteId: string, page: PageRequest): Promise<Page<SuiteRunSummaryJson>> {
    const suite = await this.repositories.qaSuites.get(suiteId);
    const runs = await this.repositories.qaRuns.listForSuite(suite.id, page);
    const names = await this.repositories.people.namesOf(runs.items.map((run) => run.createdBy));
    const items = await Promise.all(
      runs.items.map(async (run) =>
        toSuiteRunSummaryJson(
          run,
          suite.name,
          await this.definitions.get(suite.id, run.suiteVersion),
          await this.repositories.qaRuns.cells(run.id),
          names,
        ),
      ),
    );
    return { items, nextCursor: runs.nextCursor };
  }

  /** Cancels a running run: pending cells are cancelled now, running ones stop at their next lease check. */
  async cancel(runId: string): Promise<SuiteRunJson> {
    const loaded = await this.load(runId);
    if (loaded.run.status !== 'running')
      throw new ApiError(
        ApiErrorCode.Conflict,
        `Run ${runId} already ${loaded.run.status}; only a running run can be cancelled`,
      );
    const run = await this.repositories.qaRuns.cancel(runId);
    this.engine.cancelLocal(runId);
    return this.runJson({ ...loaded, run });
  }

  /** One cell whole: the target's full result and every assertion's outcome. */
  async cell(runId: string, caseId: string, targetIndex: number): Promise<CellJson> {
    const loaded = await this.load(runId);
    const cell = await this.repositories.qaRuns.cellByCaseId(runId, caseId, targetIndex);
    if (cell === undefined)
      throw new ApiError(
        ApiErrorCode.NotFound,
        `Run ${runId} has no cell for case "${caseId}" on target ${targetIndex}`,
      );
    return toCellJson(cell, loaded.definition);
  }

  /** A run against an earlier one of the same suite: regressions, fixes, new and removed cases. */
  async compare(runId: string, against: Against): Promise<RunComparisonJson> {
    const after = await this.load(runId);
    const before = await this.against(after, against);
    const [afterCells, beforeCells] = await Promise.all([
      this.repositories.qaRuns.cells(after.run.id),
      this.repositories.qaRuns.cells(before.run.id),
    ]);
    return {
      runId: after.run.id,
      againstRunId: before.run.id,
      ...compareRuns(
        { definition: before.definition, cells: beforeCells.map(toCellSummaryJson) },
        { definition: after.definition, cells: afterCells.map(toCellSummaryJson) },
      ),
    };
  }

  /**
   * One case on one target (by its index in this run's version) in both runs, with a JSON diff of
   * the two outputs. The earlier run's cell is the one of the same case id and target label.
   */
  async compareCell(
    runId: string,
    caseId: string,
    targetIndex: number,
    against: Against,
  ): Promise<CellComparisonJson> {
    const after = await this.load(runId);
    const target = after.definition.targets[targetIndex];
    if (target === undefined)
      throw new ApiError(ApiErrorCode.NotFound, `Run ${runId} has no target ${targetIndex}`);
    const before = await this.against(after, against);
    const label = targetLabel(target);
    const beforeTargetIndex = before.definition.targets.findIndex(
      (candidate) => targetLabel(candidate) === label,
    );
    const [afterCell, beforeCell] = await Promise.all([
      this.repositories.qaRuns.cellByCaseId(after.run.id, caseId, targetIndex),
      beforeTargetIndex === -1
        ? Promise.resolve(undefined)
        : this.repositories.qaRuns.cellByCaseId(before.run.id, caseId, beforeTargetIndex),
    ]);
    if (afterCell === undefined && beforeCell === undefined)
      throw new ApiError(
        ApiErrorCode.NotFound,
        `Neither run has a cell for case "${caseId}" on target "${label}"`,
      );
    const afterJson = afterCell === undefined ? null : toCellJson(afterCell, after.definition);
    const beforeJson = beforeCell === undefined ? null : toCellJson(beforeCell, before.definition);
    return {
      runId: after.run.id,
      againstRunId: before.run.id,
      before: beforeJson,
      after: afterJson,
      diff: jsonDiff(beforeJson?.result?.json ?? null, afterJson?.result?.json ?? null),
    };
  }

  /** What a progress stream reads: the snapshot now, then the run and its newly finished cells. */
  async progressSource(runId: string): Promise<RunProgressSource> {
    const snapshot = await this.get(runId);
    return {
      snapshot,
      readRun: () => this.repositories.qaRuns.get(runId),
      cellsFinishedSince: (sinceMs) => this.repositories.qaRuns.cellsFinishedSince(runId, sinceMs),
      allCells: () => this.repositories.qaRuns.cells(runId),
    };
  }

  private async load(runId: string): Promise<LoadedRun> {
    const run = await this.repositories.qaRuns.get(runId).catch(rethrowNotFound(`Run ${runId} not found`));
    const [suite, definition] = await Promise.all([
      this.repositories.qaSuites.get(run.suiteId),
      this.definitions.get(run.suiteId, run.suiteVersion),
    ]);
    return { run, suiteName: suite.name, definition };
  }

  /** The run compared with: the newest finished earlier run of the suite, or the one named (same suite only). */
  private async against(after: LoadedRun, against: Against): Promise<LoadedRun> {
    if (against === 'latest') {
      const earlier = await this.repositories.qaRuns.latestFinishedBefore(after.run.suiteId, after.run.id);
      if (earlier === undefined)
        throw new ApiError(ApiErrorCode.NotFound, 'No earlier finished run of this suite to compare with');
      return this.load(earlier.id);
    }
    if (against === after.run.id)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        'query.against: a run cannot be compared with itself',
      );
    const before = await this.load(against).catch((error: unknown) => {
      throw error instanceof ApiError && error.code === ApiErrorCode.NotFound
        ? new ApiError(ApiErrorCode.NotFound, `Run ${against} (query.against) not found`)
        : error;
    });
    if (before.run.suiteId !== after.run.suiteId)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        `query.against: run ${against} is a run of another suite; compare runs of the same suite`,
      );
    return before;
  }

  private async runJson(loaded: LoadedRun): Promise<SuiteRunJson> {
    const [cells, names] = await Promise.all([
      this.repositories.qaRuns.cells(loaded.run.id),
      this.repositories.people.namesOf([loaded.run.createdBy]),
    ]);
    return toSuiteRunJson(loaded.run, loaded.suiteName, loaded.definition, cells, names);
  }
}
