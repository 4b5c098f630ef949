import {
  targetLabel,
  type CaseChange,
  type CellComparisonJson,
  type CellJson,
  type RunComparisonJson,
  type SuiteRunJson,
  type SuiteRunSummaryJson,
} from '@agentdesk/api-contract';
import type { ApiCredential } from '../../api-client';
import { indexComparison } from '../comparison-model';
import { changeMark } from '../matrix-model';
import type { RunPageQuery } from '../run-page-query';
import { listSuiteRuns, readCell, readComparedCell, readComparison } from './read-suites';

/** A call's answer, or why it failed (shown where the answer would have been). */
export type Outcome<Data> = { ok: true; data: Data } | { ok: false; error: unknown };

function outcomeOf<Data>(promise: Promise<Data>): Promise<Outcome<Data>> {
  return promise.then(
    (data) => ({ ok: true as const, data }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** What the run page shows under the matrix, by the URL: one cell, one cell in two runs, or a case across targets. */
export type OpenedDetail =
  | { kind: 'cell'; targetIndex: number; cell: Outcome<CellJson> }
  | {
      kind: 'compared-cell';
      targetIndex: number;
      compared: Outcome<CellComparisonJson>;
      againstRunId: string;
    }
  | { kind: 'case'; cells: Outcome<CellJson>[] };

export interface RunPageData {
  comparison: Outcome<RunComparisonJson> | undefined;
  /**
   * The cells the comparison marks in the matrix (regression, fix, new, removed), keyed
   * `caseIndex:targetIndex`; unchanged cells stay out, so the page sends the browser only marks.
   */
  changes: Record<string, CaseChange> | null;
  /** The cases "only changes" keeps; null: every case is shown. */
  shownCaseIds: string[] | null;
  otherRuns: SuiteRunSummaryJson[];
  detail: OpenedDetail | undefined;
}

function cellChanges(run: SuiteRunJson, comparison: RunComparisonJson): Record<string, CaseChange> {
  const index = indexComparison(
    comparison,
    run.cases.map((c) => c.id),
  );
  const labels = run.targets.map(targetLabel);
  const changes: Record<string, CaseChange> = {};
  run.cases.forEach((testCase, caseIndex) =>
    labels.forEach((label, targetIndex) => {
      const change = index.changeOf(testCase.id, label);
      if (change !== undefined && changeMark(change) !== null)
        changes[`${caseIndex}:${targetIndex}`] = change;
    }),
  );
  return changes;
}

/**
 * Everything a run page reads beside the run itself, in parallel where it can: the comparison the
 * URL asks for, the suite's other runs (for "Compare with"), and the opened cell or case.
 */
export async function readRunPageData(
  credential: ApiCredential,
  run: SuiteRunJson,
  query: RunPageQuery,
): Promise<RunPageData> {
  const [comparison, otherRuns] = await Promise.all([
    query.against === undefined ? undefined : outcomeOf(readComparison(credential, run.id, query.against)),
    listSuiteRuns(credential, run.suiteId, undefined).then(
      (page) => page.items.filter((other) => other.id !== run.id),
      () => [],
    ),
  ]);
  const compared = comparison?.ok === true ? comparison.data : undefined;
  const caseId = query.caseId;
  let detail: OpenedDetail | undefined;
  if (caseId !== undefined && query.targetIndex !== undefined && query.targetIndex < run.targets.length) {
    const targetIndex = query.targetIndex;
    detail =
      compared === undefined
        ? {
            kind: 'cell',
            targetIndex,
            cell: await outcomeOf(readCell(credential, run.id, caseId, targetIndex)),
          }
        : {
            kind: 'compared-cell',
            targetIndex,
            againstRunId: compared.againstRunId,
            compared: await outcomeOf(
              readComparedCell(credential, run.id, caseId, targetIndex, compared.againstRunId),
            ),
          };
  } else if (caseId !== undefined) {
    detail = {
      kind: 'case',
      cells: await Promise.all(
        run.targets.map((_, targetIndex) => outcomeOf(readCell(credential, run.id, caseId, targetIndex))),
      ),
    };
  }
  const index =
    compared === undefined
      ? undefined
      : indexComparison(
          compared,
          run.cases.map((c) => c.id),
        );
  return {
    comparison,
    changes: compared === undefined ? null : cellChanges(run, compared),
    shownCaseIds:
      index !== undefined && query.onlyChanges
        ? run.cases.map((c) => c.id).filter((id) => index.caseChanged(id))
        : null,
    otherRuns,
    detail,
  };
}
