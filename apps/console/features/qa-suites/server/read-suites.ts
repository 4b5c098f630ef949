import {
  cellComparisonJsonSchema,
  cellJsonSchema,
  pageJsonSchema,
  runComparisonJsonSchema,
  suiteJsonSchema,
  suiteRunJsonSchema,
  suiteRunSummaryJsonSchema,
  suiteSummaryJsonSchema,
  suiteVersionJsonSchema,
  type CellComparisonJson,
  type CellJson,
  type PageJson,
  type RunComparisonJson,
  type SuiteJson,
  type SuiteRunJson,
  type SuiteRunSummaryJson,
  type SuiteSummaryJson,
  type SuiteVersionJson,
} from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';

export const SUITE_LIST_SIZE = 50;
export const SUITE_RUNS_SIZE = 20;

const suitesPageSchema = pageJsonSchema(suiteSummaryJsonSchema);
const runsPageSchema = pageJsonSchema(suiteRunSummaryJsonSchema);

/** The API's path of a suite, a run, or a cell; ids and case ids are encoded, never trusted as path text. */
export const qaPaths = {
  suites: '/v1/qa/suites',
  suite: (suiteId: string) => `/v1/qa/suites/${encodeURIComponent(suiteId)}`,
  run: (runId: string) => `/v1/qa/runs/${encodeURIComponent(runId)}`,
  cell: (runId: string, caseId: string, targetIndex: number) =>
    `/v1/qa/runs/${encodeURIComponent(runId)}/cells/${encodeURIComponent(caseId)}/${targetIndex}`,
  comparedCell: (runId: string, caseId: string, targetIndex: number) =>
    `/v1/qa/runs/${encodeURIComponent(runId)}/compare/${encodeURIComponent(caseId)}/${targetIndex}`,
};

/** The suites, newest first. */
export function listSuites(
  credential: ApiCredential,
  cursor: string | undefined,
): Promise<PageJson<SuiteSummaryJson>> {
  return getFromApi(credential, qaPaths.suites, pageQuery(cursor, SUITE_LIST_SIZE), suitesPageSchema);
}

/** One suite with its latest version's definition and the list of its versions. */
export function readSuite(credential: ApiCredential, suiteId: string): Promise<SuiteJson> {
  return getFromApi(credential, qaPaths.suite(suiteId), {}, suiteJsonSchema);
}

/** An earlier version of a suite, to read (never to edit). */
export function readSuiteVersion(
  credential: ApiCredential,
  suiteId: string,
  version: number,
): Promise<SuiteVersionJson> {
  return getFromApi(credential, `${qaPaths.suite(suiteId)}/versions/${version}`, {}, suiteVersionJsonSchema);
}

/** A suite's runs, newest first. */
export function listSuiteRuns(
  credential: ApiCredential,
  suiteId: string,
  cursor: string | undefined,
): Promise<PageJson<SuiteRunSummaryJson>> {
  return getFromApi(
    credential,
    `${qaPaths.suite(suiteId)}/runs`,
    pageQuery(cursor, SUITE_RUNS_SIZE),
    runsPageSchema,
  );
}

/** A run with every cell's summary, its pass rates, cost and latency. */
export function readSuiteRun(credential: ApiCredential, runId: string): Promise<SuiteRunJson> {
  return getFromApi(credential, qaPaths.run(runId), {}, suiteRunJsonSchema);
}

/** A run against an earlier one of its suite (`latest`: the newest finished one before it). */
export function readComparison(
  credential: ApiCredential,
  runId: string,
  against: string,
): Promise<RunComparisonJson> {
  return getFromApi(credential, `${qaPaths.run(runId)}/compare`, { against }, runComparisonJsonSchema);
}

/** One cell whole: the request, the output, the validation, each assertion. */
export function readCell(
  credential: ApiCredential,
  runId: string,
  caseId: string,
  targetIndex: number,
): Promise<CellJson> {
  return getFromApi(credential, qaPaths.cell(runId, caseId, targetIndex), {}, cellJsonSchema);
}

/** One case on one target in two runs: both cells and the JSON diff of their outputs. */
export function readComparedCell(
  credential: ApiCredential,
  runId: string,
  caseId: string,
  targetIndex: number,
  against: string,
): Promise<CellComparisonJson> {
  return getFromApi(
    credential,
    qaPaths.comparedCell(runId, caseId, targetIndex),
    { against },
    cellComparisonJsonSchema,
  );
}
