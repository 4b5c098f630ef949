import { parseArgs } from 'node:util';
import { CliError } from './cli-error';

/** `npm run suite -- run <suite> [options]`, parsed. */
export interface RunArguments {
  readonly command: 'run';
  /** A suite's name (exact) or id. */
  readonly suite: string;
  /** Compare with the newest earlier finished run (`latest`) or a run id; none: no comparison. */
  readonly against: string | undefined;
  /** Where to write the JUnit XML report. */
  readonly junitPath: string | undefined;
  /** Overall pass rate (0–1) under which the command fails. */
  readonly minPassRate: number | undefined;
  /** Cells in flight per provider (the API's default when absent). */
  readonly concurrency: number | undefined;
  /** The API's base URL, without a trailing slash. */
  readonly url: string;
  readonly apiKey: string;
}

export type ParsedArguments = RunArguments | { readonly command: 'help' };

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export const USAGE = `Usage: npm run suite -- run <suite name or id> [options]

Runs a QA suite on the AgentDesk API, waits for it, prints the pass rates per target and writes
an optional JUnit report.

Options:
  --against latest|<runId>  compare with the newest earlier finished run, or with that run;
                            a case that passed there and fails now is a regression
  --junit <file>            write a JUnit XML report (one testsuite per target)
  --min-pass-rate <0..1>    fail when the overall pass rate is below this
  --concurrency <n>         model calls in flight per provider (1-64)
  --url <url>               the API (default: $AGENTDESK_URL, else ${DEFAULT_API_URL})

The API key comes from AGENTDESK_API_KEY (a qa or admin key).
Exit codes: 0 ok; 1 a regression or a pass rate below the floor; 2 a usage, connection or API error.`;

/** Parses the command line; throws a `usage` CliError that says what is wrong. */
export function parseArguments(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): ParsedArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        against: { type: 'string' },
        junit: { type: 'string' },
        'min-pass-rate': { type: 'string' },
        concurrency: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliError('usage', error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals[0] === 'help') return { command: 'help' };
  const [command, suite, ...extra] = positionals;
  if (command === undefined) throw new CliError('usage', 'name a command: run <suite>');
  if (command !== 'run') throw new CliError('usage', `unknown command "${command}" (the command is "run")`);
  if (suite === undefined || suite.trim() === '') throw new CliError('usage', 'run needs a suite name or id');
  if (extra.length > 0)
    throw new CliError('usage', `unexpected argument "${extra[0]}" (quote a suite name with spaces)`);
  const apiKey = environment.AGENTDESK_API_KEY;
  if (apiKey === undefined || apiKey.trim() === '')
    throw new CliError('usage', 'set AGENTDESK_API_KEY to a qa or admin API key');
  return {
    command: 'run',
    suite,
    against: nonEmpty('--against', values.against),
    junitPath: nonEmpty('--junit', values.junit),
    minPassRate: passRate(values['min-pass-rate']),
    concurrency: concurrency(values.concurrency),
    url: apiUrl(values.url ?? (environment.AGENTDESK_URL || DEFAULT_API_URL)),
    apiKey: apiKey.trim(),
  };
}

function nonEmpty(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new CliError('usage', `${option} must not be empty`);
  return value.trim();
}

function passRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1)
    throw new CliError('usage', `--min-pass-rate must be a number from 0 to 1, got "${value}"`);
  return rate;
}

function concurrency(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 64)
    throw new CliError('usage', `--concurrency must be an integer from 1 to 64, got "${value}"`);
  return count;
}

function apiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError('usage', `--url must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError('usage', `--url must be an http(s) URL, got "${value}"`);
  return url.href.replace(/\/+$/, '');
}
