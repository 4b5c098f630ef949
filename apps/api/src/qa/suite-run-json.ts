import {
  assertionOutcomeJsonSchema,
  suiteAssertionKinds,
  targetResultJsonSchema,
  type AssertionOutcomeJson,
  type CellJson,
  type CellSummaryJson,
  type SuiteAssertionKind,
  type SuiteDefinition,
  type SuiteRunJson,
  type SuiteRunSummaryJson,
} from '@agentdesk/api-contract';
import { summarizeRun } from '@agentdesk/qa-suites';
import type { QaRunCell, QaRunCellWithResult, QaSuiteRun } from '@agentdesk/storage';
import { z } from 'zod';
import type { PersonNames } from './suite-json';

const knownKinds: ReadonlySet<string> = new Set(suiteAssertionKinds);

function isAssertionKind(kind: string): kind is SuiteAssertionKind {
  return knownKinds.has(kind);
}

/** One cell as the matrix shows it. */
export function toCellSummaryJson(cell: QaRunCell): CellSummaryJson {
  return {
    caseId: cell.caseId,
    caseIndex: cell.caseIndex,
    targetIndex: cell.targetIndex,
    status: cell.status,
    latencyMs: cell.latencyMs,
    costMicros: cell.costMicros,
    inputTokens: cell.inputTokens,
    outputTokens: cell.outputTokens,
    failedKinds: cell.failedKinds.filter(isAssertionKind),
    reason: cell.reason,
  };
}

/** The run's header: what every answer about a run carries. */
function runHeader(
  run: QaSuiteRun,
  suiteName: string,
  definition: SuiteDefinition,
  names: PersonNames,
): Omit<SuiteRunJson, 'cells' | 'cases' | 'byTarget' | 'byAssertionKind'> {
  return {
    id: run.id,
    suiteId: run.suiteId,
    suiteName,
    suiteVersion: run.suiteVersion,
    status: run.status,
    createdBy: run.createdBy,
    createdByName: names.get(run.createdBy) ?? null,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt === null ? null : run.finishedAt.toISOString(),
    counts: { ...run.counts },
    targets: definition.targets,
  };
}

/**
 * A run with its whole matrix. Built from the summary columns of one `cells()` read and one pass
 * of `summarizeRun`, so a run of thousands of cells answers quickly.
 */
export function toSuiteRunJson(
  run: QaSuiteRun,
  suiteName: string,
  definition: SuiteDefinition,
  cells: readonly QaRunCell[],
  names: PersonNames,
): SuiteRunJson {
  const summaries = cells.map(toCellSummaryJson);
  const { byTarget, byAssertionKind } = summarizeRun(definition, summaries);
  return {
    ...runHeader(run, suiteName, definition, names),
    cases: definition.cases.map((suiteCase) => ({
      id: suiteCase.id,
      description: suiteCase.description ?? null,
    })),
    cells: summaries,
    byTarget,
    byAssertionKind,
  };
}

/** A run in a listing: counts and per-target pass rates, without the matrix. */
export function toSuiteRunSummaryJson(
  run: QaSuiteRun,
  suiteName: string,
  definition: SuiteDefinition,
  cells: readonly QaRunCell[],
  names: PersonNames,
): SuiteRunSummaryJson {
  const { byTarget } = summarizeRun(definition, cells.map(toCellSummaryJson));
  return { ...runHeader(run, suiteName, definition, names), byTarget };
}

const storedAssertions = z.array(assertionOutcomeJsonSchema);

/**
 * One cell whole. Its stored result is the target's result (what the lab keeps) with the
 * assertions' outcomes under `assertions`; parsed here, once, with the contract's schemas.
 */
export function toCellJson(cell: QaRunCellWithResult, definition: SuiteDefinition): CellJson {
  const target = definition.targets[cell.targetIndex];
  if (target === undefined)
    throw new Error(`Cell of run ${cell.runId} names target ${cell.targetIndex}, which its version lacks`);
  const result = cell.result === null ? null : targetResultJsonSchema.safeParse(cell.result);
  const assertions: AssertionOutcomeJson[] =
    cell.result === null ? [] : (storedAssertions.safeParse(cell.result['assertions']).data ?? []);
  return {
    ...toCellSummaryJson(cell),
    runId: cell.runId,
    target,
    result: result?.success === true ? result.data : null,
    assertions,
    attempts: cell.attempts,
    finishedAt: cell.finishedAt === null ? null : cell.finishedAt.toISOString(),
  };
}
