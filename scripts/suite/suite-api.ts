import {
  cellJsonSchema,
  pageJsonSchema,
  runComparisonJsonSchema,
  suiteRunJsonSchema,
  suiteSummaryJsonSchema,
  type CellJson,
  type RunComparisonJson,
  type SuiteRunJson,
  type SuiteSummaryJson,
} from '@agentdesk/api-contract';
import type { z } from 'zod';
import { CliError } from './cli-error';

/** One request's limit: the API answers these routes at once (a run is polled, not awaited). */
const REQUEST_TIMEOUT_MS = 30_000;

/** The QA routes the command uses, each answer checked against the API contract's schema. */
export class SuiteApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** The suite with exactly this name, else the suite with this id. */
  async resolveSuite(nameOrId: string): Promise<{ id: string; name: string }> {
    const page = await this.request(
      'GET',
      `/v1/qa/suites?name=${encodeURIComponent(nameOrId)}&limit=1`,
      pageJsonSchema(suiteSummaryJsonSchema),
    );
    const named: SuiteSummaryJson | undefined = page.items.find((suite) => suite.name === nameOrId);
    if (named !== undefined) return named;
    try {
      const byId = await this.request(
        'GET',
        `/v1/qa/suites/${encodeURIComponent(nameOrId)}`,
        suiteSummaryJsonSchema,
      );
      return byId;
    } catch (error) {
      // 404: no suite has that id; 400: it is not even an id. Either way the user named no suite.
      if (error instanceof CliError && (error.status === 404 || error.status === 400))
        throw new CliError('usage', `no suite is named "${nameOrId}" (or has that id)`);
      throw error;
    }
  }

  startRun(suiteId: string, concurrency: number | undefined): Promise<SuiteRunJson> {
    return this.request('POST', `/v1/qa/suites/${encodeURIComponent(suiteId)}/runs`, suiteRunJsonSchema, {
      ...(concurrency === undefined ? {} : { concurrency }),
    });
  }

  run(runId: string): Promise<SuiteRunJson> {
    return this.request('GET', `/v1/qa/runs/${encodeURIComponent(runId)}`, suiteRunJsonSchema);
  }

  cell(runId: string, caseId: string, targetIndex: number): Promise<CellJson> {
    return this.request(
      'GET',
      `/v1/qa/runs/${encodeURIComponent(runId)}/cells/${encodeURIComponent(caseId)}/${targetIndex}`,
      cellJsonSchema,
    );
  }

  compare(runId: string, against: string): Promise<RunComparisonJson> {
    return this.request(
      'GET',
      `/v1/qa/runs/${encodeURIComponent(runId)}/compare?against=${encodeURIComponent(against)}`,
      runComparisonJsonSchema,
    );
  }

  private async request<Schema extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: Schema,
    body?: unknown,
  ): Promise<z.infer<Schema>> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CliError('connection', `cannot reach the API at ${this.baseUrl} (${causeOf(error)})`);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new CliError(
        'http',
        `${method} ${path.split('?')[0]} answered ${response.status}: ${problemOf(text)}${hintFor(response.status)}`,
        response.status,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError('answer', `${method} ${path.split('?')[0]} did not answer JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CliError(
        'answer',
        `${method} ${path.split('?')[0]} answered an unexpected shape (${issue?.path.join('.') || 'the answer'}: ${issue?.message})`,
      );
    }
    return parsed.data;
  }
}

/** The API's problem message (`{message}` or `{error: {message}}`), else the start of the body. */
function problemOf(text: string): string {
  try {
    const json = JSON.parse(text) as { message?: unknown; error?: { message?: unknown } | unknown };
    if (typeof json.message === 'string') return json.message;
    const error = json.error as { message?: unknown } | undefined;
    if (error !== undefined && typeof error.message === 'string') return error.message;
  } catch {
    // not JSON: quote it
  }
  return text.slice(0, 300) || '(no body)';
}

function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

/** What to check when the key is refused or lacks a scope: the usual cause in a CI job. */
function hintFor(status: number): string {
  if (status === 401) return ' (check AGENTDESK_API_KEY: a qa or admin key of this server, not revoked)';
  if (status === 403) return ' (the key needs the qa or admin role to run suites)';
  return '';
}
