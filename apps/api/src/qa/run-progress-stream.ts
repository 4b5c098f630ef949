import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CellSummaryJson, RunCountsJson, RunProgressEvent, SuiteRunJson } from '@agentdesk/api-contract';
import type { QaRunCell, QaSuiteRun } from '@agentdesk/storage';
import { namedJsonEvent } from '../http/sse-frame';
import { SseWriter } from '../http/sse-writer';
import { toCellSummaryJson } from './suite-run-json';

/** How often the database is asked for progress: runs advance on any replica, so the database is the one truth. */
export const RUN_PROGRESS_POLL_MS = 250;
/** A comment line this often keeps proxies from closing a stream while no cell finishes. */
export const RUN_PROGRESS_HEARTBEAT_MS = 15_000;
/**
 * Cells are asked for from this long before the newest finish seen: a cell finished on another
 * replica may commit after one that finished later (its `finished_at` is older than what was
 * already seen). Cells already sent are skipped, so the overlap costs a few rows, never a duplicate.
 */
export const FINISHED_CELL_OVERLAP_MS = 10_000;

/** What the stream reads, each call one query (so it works against any replica's writes). */
export interface RunProgressSource {
  readonly snapshot: SuiteRunJson;
  readonly readRun: () => Promise<QaSuiteRun>;
  readonly cellsFinishedSince: (sinceMs: number) => Promise<QaRunCell[]>;
  readonly allCells: () => Promise<QaRunCell[]>;
}

export interface RunProgressStreamOptions {
  readonly headers: Record<string, string>;
  /** Aborted when the app stops: open streams end so the server can close. */
  readonly stopping: AbortSignal;
  readonly pollMs?: number;
  /** A read failed mid-stream (the database went away): the stream ends without `finished`. */
  readonly onError: (error: unknown) => void;
}

const isFinished = (status: CellSummaryJson['status']): boolean =>
  status !== 'pending' && status !== 'running';
const keyOf = (cell: { caseIndex: number; targetIndex: number }): string =>
  `${cell.caseIndex}:${cell.targetIndex}`;

/**
 * Streams one run's progress as Server-Sent Events: a `snapshot` (the run with its matrix), then a
 * `cells` event whenever cells finished (the run's counters and those cells), and `finished` once
 * the run completed or was cancelled — then the stream ends. Ends earlier when the client leaves or
 * the app stops.
 */
export async function streamRunProgress(
  response: ServerResponse,
  source: RunProgressSource,
  options: RunProgressStreamOptions,
): Promise<void> {
  const writer = new SseWriter<RunProgressEvent>(response, {
    frame: (event) => namedJsonEvent(event.type, event),
    headers: options.headers,
    heartbeatIntervalMs: RUN_PROGRESS_HEARTBEAT_MS,
  });
  const stop = AbortSignal.any([writer.clientGone, options.stopping]);
  const sent = new Set<string>();
  let newestFinishMs = 0;
  const remember = (cells: readonly QaRunCell[]): CellSummaryJson[] => {
    const fresh: CellSummaryJson[] = [];
    for (const cell of cells) {
      if (!isFinished(cell.status) || sent.has(keyOf(cell))) continue;
      sent.add(keyOf(cell));
      if (cell.finishedAt !== null) newestFinishMs = Math.max(newestFinishMs, cell.finishedAt.getTime());
      fresh.push(toCellSummaryJson(cell));
    }
    return fresh;
  };
  for (const cell of source.snapshot.cells) if (isFinished(cell.status)) sent.add(keyOf(cell));
  // The snapshot's cells carry no finish time: start the window at the run's start.
  newestFinishMs = Date.parse(source.snapshot.createdAt);
  try {
    await writer.write({ type: 'snapshot', run: source.snapshot });
    let counts: RunCountsJson = source.snapshot.counts;
    let status = source.snapshot.status;
    while (status === 'running' && !stop.aborted) {
      await sleep(options.pollMs ?? RUN_PROGRESS_POLL_MS, undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) break;
      const run = await source.readRun();
      status = run.status;
      const moved = run.counts.done !== counts.done || run.status !== 'running';
      counts = { ...run.counts };
      if (!moved) continue;
      const cells = remember(
        run.status === 'running'
          ? await source.cellsFinishedSince(newestFinishMs - FINISHED_CELL_OVERLAP_MS)
          : // The last look reads the whole matrix: nothing finished may be left unsent.
            await source.allCells(),
      );
      if (cells.length > 0) await writer.write({ type: 'cells', counts, cells });
    }
    if (status !== 'running' && !stop.aborted) await writer.write({ type: 'finished', status, counts });
  } catch (error) {
    // Headers are out: the stream can only end; a client reconnects and gets a fresh snapshot.
    options.onError(error);
  } finally {
    writer.end();
  }
}
