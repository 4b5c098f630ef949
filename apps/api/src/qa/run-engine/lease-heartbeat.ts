import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import { CellStop } from './cell-stop';
import type { CellJob } from './cell-queue';

/**
 * Keeps a claimed cell's lease ahead of the clock (every third of the lease, so two renewals in a
 * row may fail before it lapses) while the cell runs. A renewal that finds the run cancelled, or
 * the cell claimed by another worker, aborts the cell's work.
 */
export function startLeaseHeartbeat(
  runs: Pick<Repositories['qaRuns'], 'extendLease'>,
  cell: CellJob,
  workerId: string,
  leaseMs: number,
  controller: AbortController,
  logger: Pick<Logger, 'warn'>,
): { stop(): void } {
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing || controller.signal.aborted) return;
      renewing = true;
      runs
        .extendLease(cell.runId, cell.caseIndex, cell.targetIndex, workerId, leaseMs)
        .then((state) => {
          if (state === 'cancelled') controller.abort(new CellStop('cancelled'));
          else if (state === 'lost') controller.abort(new CellStop('lease-lost'));
        })
        .catch((error: unknown) =>
          logger.warn({ err: error, cell }, 'could not renew the lease of a QA suite cell'),
        )
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
