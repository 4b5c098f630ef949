// QA test suites as data: the suite file (parse / serialize / promptfoo import), judging a cell's
// output against its case's assertions, and a run's summaries and comparisons. Pure: no Nest, no DB.

export { type SuiteFormat, type FileIssue } from './file/file-issue';
export { parseSuiteFile, type ParsedSuite } from './file/parse-suite-file';
export { serializeSuite } from './file/serialize-suite';
export { importPromptfoo, type ImportedPromptfoo } from './promptfoo/import-promptfoo';

export { type CellOutput } from './assertions/cell-output';
export { evaluateAssertions, type JavaScriptAssertionRunner } from './assertions/evaluate-assertions';
export { cellVerdict, type CellVerdict } from './assertions/cell-verdict';
export { assertionLabel, SCHEMA_ASSERTION_LABEL } from './assertions/assertion-label';
export { resolvePointer } from './assertions/resolve-pointer';
export { JAVASCRIPT_ASSERTION_PROGRAM } from './assertions/javascript-assertion-program';
export {
  ASSERTION_PROGRAM_PATH,
  NO_SERVER_EXIT_CODE,
  oomKillsIn,
  requestCommand,
  NOT_ANSWERED_EXIT_CODE,
  RUNNER_DIED_EXIT_CODE,
  serverDeathCommand,
  shellQuote,
  startServerCommand,
} from './assertions/assertion-server-commands';

export { summarizeRun } from './runs/summarize-run';
export { compareRuns, classifyChange, type ComparedRun, type RunComparison } from './runs/compare-runs';
export { jsonDiff } from './runs/json-diff';

export { caseFromLabRun, type LabRunForCase } from './cases/case-from-lab-run';
