'use client';

import type { RunCountsJson, RunProgressEvent, SuiteRunJson, SuiteRunStatus } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { callConsole } from '../../console-call';
import { useRunProgress, type RunProgressState } from '../hooks/use-run-progress';
import { applyCells, matrixOf, progressPercent, type MatrixState } from '../matrix-model';
import { RunMatrix, type CellChanges, type OpenedCell } from './run-matrix';

const streamText: Record<RunProgressState, string | null> = {
  off: null,
  connecting: 'Connecting to the run’s progress…',
  open: 'Live: cells fill in as they finish.',
  ended: null,
  unavailable: 'The live progress is not available; reload the page to see where the run stands.',
};

function RunCounts({ counts, status }: { counts: RunCountsJson; status: SuiteRunStatus }) {
  return (
    <div className="run-progress">
      <div
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={counts.done}
        aria-valuetext={`${counts.done} of ${counts.total} cells done`}
        className="progress-track"
      >
        <div
          className={`progress-fill progress-${status}`}
          style={{ width: `${progressPercent(counts)}%` }}
        />
      </div>
      <dl className="facts run-counts" aria-label="Run counts">
        <div>
          <dt>Done</dt>
          <dd>
            {counts.done} / {counts.total}
          </dd>
        </div>
        <div>
          <dt>Passed</dt>
          <dd>{counts.passed}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{counts.failed}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd>{counts.errored}</dd>
        </div>
        <div>
          <dt>Cancelled</dt>
          <dd>{counts.cancelled}</dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * A run as it goes: its status, counts and progress bar, and its matrix, kept current by the
 * progress stream while the run is running (batches of finished cells update their rows in place).
 * When it ends, the page's server parts (pass rates, cost, latency) are read again. It starts from
 * the matrix the server built (`matrixOf`, only what the matrix shows), not the whole run.
 */
export function RunLiveView({
  runId,
  initialStatus,
  initialMatrix,
  targetLabels,
  changes,
  shownCaseIds,
  hrefBase,
  opened,
  mayCancel,
  children,
}: {
  runId: string;
  initialStatus: SuiteRunStatus;
  initialMatrix: MatrixState;
  targetLabels: readonly string[];
  changes: CellChanges | null;
  shownCaseIds: readonly string[] | null;
  hrefBase: string;
  opened: OpenedCell | null;
  mayCancel: boolean;
  /** Shown between the progress and the matrix: the comparison (rendered on the server). */
  children?: ReactNode;
}) {
  const router = useRouter();
  const [matrix, setMatrix] = useState<MatrixState>(initialMatrix);
  const [status, setStatus] = useState<SuiteRunStatus>(initialStatus);
  const [cancelling, setCancelling] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const onEvent = useCallback(
    (event: RunProgressEvent) => {
      switch (event.type) {
        case 'snapshot':
          setStatus(event.run.status);
          // The page was rendered from the same data a moment ago: rebuild only if cells finished since.
          setMatrix((current) =>
            current.counts.done === event.run.counts.done ? current : matrixOf(event.run),
          );
          break;
        case 'cells':
          setMatrix((current) => applyCells(current, event.cells, event.counts));
          break;
        case 'finished':
          setStatus(event.status);
          setMatrix((current) => ({ ...current, counts: event.counts }));
          router.refresh();
          break;
      }
    },
    [router],
  );
  const streamState = useRunProgress(runId, initialStatus === 'running', onEvent);

  async function cancel(): Promise<void> {
    setCancelling(true);
    setProblem(null);
    const answer = await callConsole<SuiteRunJson>(`/suites/runs/${encodeURIComponent(runId)}/cancel`, {
      method: 'POST',
    });
    setCancelling(false);
    if (!answer.ok) setProblem(`Not cancelled: ${answer.message}`);
    else {
      setStatus(answer.data.status);
      setMatrix(matrixOf(answer.data));
    }
  }

  const streamNote = status === 'running' ? streamText[streamState] : null;
  return (
    <>
      <section aria-labelledby="run-progress-heading" className="card">
        <h2 id="run-progress-heading">
          Progress <span className={`badge run-status run-status-${status}`}>{status}</span>
        </h2>
        <RunCounts counts={matrix.counts} status={status} />
        {streamNote !== null && (
          <p className="muted" role="status">
            {streamNote}
          </p>
        )}
        {mayCancel && status === 'running' && (
          <button type="button" onClick={() => void cancel()} disabled={cancelling || !hydrated}>
            {cancelling ? 'Cancelling…' : 'Cancel run'}
          </button>
        )}
        {problem !== null && (
          <p role="alert" className="alert">
            {problem}
          </p>
        )}
      </section>
      {children}
      <section aria-labelledby="matrix-heading">
        <h2 id="matrix-heading">Matrix</h2>
        <RunMatrix
          rows={matrix.rows}
          targetLabels={targetLabels}
          changes={changes}
          shownCaseIds={shownCaseIds}
          hrefBase={hrefBase}
          opened={opened}
        />
      </section>
    </>
  );
}
