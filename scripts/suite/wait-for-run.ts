import type { SuiteRunJson } from '@agentdesk/api-contract';
import type { SuiteApi } from './suite-api';

/** How often the run is read: a run's counters are one row, so a read a second is cheap. */
export const POLL_INTERVAL_MS = 1_000;

/**
 * Reads the run every second until it is no longer running, reporting progress when it moves.
 * Polling (not the SSE stream) keeps the command working through proxies that buffer streams.
 */
export async function waitForRun(
  api: Pick<SuiteApi, 'run'>,
  runId: string,
  onProgress: (run: SuiteRunJson) => void,
  sleep: (ms: number) => Promise<void>,
): Promise<SuiteRunJson> {
  let lastDone = -1;
  for (;;) {
    const run = await api.run(runId);
    if (run.counts.done !== lastDone) {
      lastDone = run.counts.done;
      onProgress(run);
    }
    if (run.status !== 'running') return run;
    await sleep(POLL_INTERVAL_MS);
  }
}
