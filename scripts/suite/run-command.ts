import type { CellJson, RunComparisonJson, SuiteRunJson } from '@agentdesk/api-contract';
import { CliError, EXIT_NO_VERDICT, EXIT_OK, EXIT_VERDICT_FAILED } from './cli-error';
import { cellKey, junitSuitesOf } from './junit-report';
import { junitXml } from './junit-xml';
import { parseArguments, USAGE, type RunArguments } from './parse-arguments';
import { SuiteApi } from './suite-api';
import { formatRate, overallPassRate, regressionLines, summaryTable } from './summary-table';
import { waitForRun } from './wait-for-run';

/** Where the command writes: the summary to `out`, progress and problems to `err`. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  writeFile(path: string, text: string): Promise<void>;
  /** Waits between two reads of the run. */
  sleep(ms: number): Promise<void>;
}

/** Cell reads in flight while collecting failure messages for the report. */
const CELL_READS_IN_FLIGHT = 8;

/** `npm run suite -- …`: returns the exit code (0 ok, 1 verdict failed, 2 no verdict). */
export async function runSuiteCommand(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
  io: CommandIo,
): Promise<number> {
  try {
    const parsed = parseArguments(argv, environment);
    if (parsed.command === 'help') {
      io.out(USAGE);
      return EXIT_OK;
    }
    return await runSuite(parsed, io);
  } catch (error) {
    // Anything unexpected is no verdict either: exit 1 must only ever mean "the suite said no".
    if (!(error instanceof CliError)) {
      io.err(`suite: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return EXIT_NO_VERDICT;
    }
    io.err(`suite: ${error.message}`);
    if (error.kind === 'usage') io.err('Run "npm run suite -- --help" for the options.');
    return EXIT_NO_VERDICT;
  }
}

async function runSuite(options: RunArguments, io: CommandIo): Promise<number> {
  const api = new SuiteApi(options.url, options.apiKey);
  const suite = await api.resolveSuite(options.suite);
  const started = await api.startRun(suite.id, options.concurrency);
  io.err(
    `Running "${suite.name}" v${started.suiteVersion}: ${started.counts.total} cells (run ${started.id})`,
  );
  const run = await waitForRun(
    api,
    started.id,
    (progress) =>
      io.err(
        `  ${progress.counts.done}/${progress.counts.total} done — ${progress.counts.passed} passed, ${progress.counts.failed} failed, ${progress.counts.errored} errors`,
      ),
    (ms) => io.sleep(ms),
  );
  if (run.status === 'cancelled') throw new CliError('run', `run ${run.id} was cancelled before it finished`);

  io.out(`\n${summaryTable(run)}`);
  const failedCells = await failedCellDetails(api, run);
  printFailures(run, failedCells, io);
  if (options.junitPath !== undefined) {
    await io.writeFile(options.junitPath, junitXml(run.suiteName, junitSuitesOf(run, failedCells)));
    io.err(`JUnit report: ${options.junitPath}`);
  }

  let verdict = EXIT_OK;
  if (options.against !== undefined) {
    const comparison = await comparisonOf(api, run, options.against, io);
    if (comparison !== undefined) {
      const regressions = regressionLines(comparison);
      io.out(
        `\nCompared with run ${comparison.againstRunId}: ${regressions.length} regression(s), ${comparison.counts.fix ?? 0} fix(es)`,
      );
      if (regressions.length > 0) {
        io.out(regressions.join('\n'));
        verdict = EXIT_VERDICT_FAILED;
      }
    }
  }
  if (options.minPassRate !== undefined) {
    const overall = overallPassRate(run.byTarget);
    if (overall.rate === null || overall.rate < options.minPassRate) {
      io.out(
        `\nPass rate ${formatRate(overall.rate)} is below the floor of ${formatRate(options.minPassRate)}.`,
      );
      verdict = EXIT_VERDICT_FAILED;
    }
  }
  return verdict;
}

/** The full cells of the failed ones: their assertions' messages go in the report. */
async function failedCellDetails(api: SuiteApi, run: SuiteRunJson): Promise<Map<string, CellJson>> {
  const failed = run.cells.filter((cell) => cell.status === 'failed');
  const details = new Map<string, CellJson>();
  for (let start = 0; start < failed.length; start += CELL_READS_IN_FLIGHT) {
    const batch = failed.slice(start, start + CELL_READS_IN_FLIGHT);
    const cells = await Promise.all(batch.map((cell) => api.cell(run.id, cell.caseId, cell.targetIndex)));
    for (const cell of cells) details.set(cellKey(cell.caseId, cell.targetIndex), cell);
  }
  return details;
}

function printFailures(run: SuiteRunJson, failedCells: ReadonlyMap<string, CellJson>, io: CommandIo): void {
  const lines = run.cells
    .filter((cell) => cell.status === 'failed' || cell.status === 'error')
    .map((cell) => {
      const target = run.targets[cell.targetIndex];
      const label = target?.label ?? target?.model ?? `target ${cell.targetIndex}`;
      const why =
        cell.status === 'error'
          ? `error: ${cell.reason ?? 'the model call failed'}`
          : (failedCells
              .get(cellKey(cell.caseId, cell.targetIndex))
              ?.assertions.filter((outcome) => outcome.passed !== true)
              .map(
                (outcome) =>
                  `${outcome.label}${outcome.message === null ? '' : ` (${oneLine(outcome.message)})`}`,
              )
              .join('; ') ?? cell.failedKinds.join(', '));
      return `  ${cell.caseId} on ${label}: ${why}`;
    });
  if (lines.length > 0) io.out(`\nFailed cells:\n${lines.join('\n')}`);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/** The comparison, or undefined for `latest` when this is the suite's first finished run. */
async function comparisonOf(
  api: SuiteApi,
  run: SuiteRunJson,
  against: string,
  io: CommandIo,
): Promise<RunComparisonJson | undefined> {
  try {
    return await api.compare(run.id, against);
  } catch (error) {
    if (against === 'latest' && error instanceof CliError && error.status === 404) {
      io.out('\nNo earlier finished run of this suite to compare with: no regressions to report.');
      return undefined;
    }
    throw error;
  }
}
