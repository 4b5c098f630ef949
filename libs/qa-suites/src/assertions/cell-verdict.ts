import type { AssertionOutcomeJson, SuiteAssertionKind } from '@agentdesk/api-contract';
import type { CellOutput } from './cell-output';

export interface CellVerdict {
  status: 'passed' | 'failed' | 'error';
  /** The kinds of the outcomes that did not pass, each once, in the order they were checked. */
  failedKinds: SuiteAssertionKind[];
  /** Why the cell errored or failed (the first outcome that did not pass); null when it passed. */
  reason: string | null;
}

/**
 * A cell's verdict from its outcomes: `error` when the model call failed, `failed` when any
 * outcome did not pass (false, or null: what cannot be judged does not pass), else `passed`.
 */
export function cellVerdict(output: CellOutput, outcomes: readonly AssertionOutcomeJson[]): CellVerdict {
  if (output.status === 'error')
    return { status: 'error', failedKinds: [], reason: output.errorMessage ?? 'the model call failed' };
  const notPassed = outcomes.filter((outcome) => outcome.passed !== true);
  if (notPassed.length === 0) return { status: 'passed', failedKinds: [], reason: null };
  const failedKinds = [...new Set(notPassed.map((outcome) => outcome.kind))];
  const first = notPassed[0]!;
  return {
    status: 'failed',
    failedKinds,
    reason: first.message === null ? first.label : `${first.label}: ${first.message}`,
  };
}
