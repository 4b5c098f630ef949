import {
  cellStatuses,
  type CellStatus,
  type CellSummaryJson,
  type SuiteDefinition,
} from '@agentdesk/api-contract';
import fc from 'fast-check';

/** A one-line definition for run tests: these cases × these targets (models named by label). */
export function definitionOf(caseIds: readonly string[], targetLabels: readonly string[]): SuiteDefinition {
  return {
    name: 'suite',
    timeoutMs: 60_000,
    targets: targetLabels.map((label) => ({ model: `model-${label}`, label, strict: true })),
    cases: caseIds.map((id) => ({ id, prompt: 'p', schema: {}, assertions: [] })),
  };
}

export function cell(
  caseIndex: number,
  caseId: string,
  targetIndex: number,
  status: CellStatus,
  extra: Partial<CellSummaryJson> = {},
): CellSummaryJson {
  return {
    caseId,
    caseIndex,
    targetIndex,
    status,
    latencyMs: null,
    costMicros: null,
    inputTokens: null,
    outputTokens: null,
    failedKinds: status === 'failed' ? ['schema'] : [],
    reason: null,
    ...extra,
  };
}

/** A run of a suite drawn from a pool of case ids and target labels, every cell with some status. */
export const runOfPool: fc.Arbitrary<{ definition: SuiteDefinition; cells: CellSummaryJson[] }> = fc
  .record({
    caseIds: fc.shuffledSubarray(['a', 'b', 'c', 'd', 'e'], { minLength: 1 }),
    labels: fc.shuffledSubarray(['x', 'y', 'z'], { minLength: 1 }),
  })
  .chain(({ caseIds, labels }) =>
    fc
      .array(fc.constantFrom(...cellStatuses), {
        minLength: caseIds.length * labels.length,
        maxLength: caseIds.length * labels.length,
      })
      .map((statuses) => ({
        definition: definitionOf(caseIds, labels),
        cells: caseIds.flatMap((caseId, caseIndex) =>
          labels.map((_, targetIndex) =>
            cell(caseIndex, caseId, targetIndex, statuses[caseIndex * labels.length + targetIndex]!),
          ),
        ),
      })),
  );
