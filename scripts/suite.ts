/**
 * `npm run suite -- run <suite> [--against latest|<runId>] [--junit out.xml] [--min-pass-rate 0.9]
 * [--concurrency N] [--url URL]`: runs a QA suite on an AgentDesk API (AGENTDESK_API_KEY) and
 * exits 0 when every check held, 1 on a regression or a pass rate below the floor, 2 when there
 * is no verdict (usage, connection or API errors). See `suite/parse-arguments.ts` for the options.
 */
import { writeFile } from 'node:fs/promises';
import { runSuiteCommand } from './suite/run-command';

process.exitCode = await runSuiteCommand(process.argv.slice(2), process.env, {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
