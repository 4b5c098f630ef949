import {
  importIntoSuiteBodySchema,
  importSuiteBodySchema,
  importedSuiteJsonSchema,
  startRunBodySchema,
  suiteJsonSchema,
  suiteRunJsonSchema,
  type SuiteJson,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { NO_STORE, consoleRefusal, relayFromApi, relayToApi, sendToApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { qaPaths } from './read-suites';
import { readSuiteText, suiteTextFormats, type SuiteTextIssue } from './suite-text';

/** What the suite editor sends: its text, the format it is written in, and a note for the version. */
const editorBodySchema = z
  .object({
    format: z.enum(suiteTextFormats),
    text: z.string().min(1).max(10_000_000),
    note: z.string().max(2_000).optional(),
  })
  .strict();

/**
 * The editor's answer: the saved suite, or the text's problems by path and line. Problems of the
 * text are an answer the editor shows inline, not a refusal (the API's refusals — a taken name, a
 * stale version — come back as refusals).
 */
export type SuiteEditorAnswer =
  { outcome: 'saved'; suite: SuiteJson } | { outcome: 'invalid'; issues: SuiteTextIssue[] };

async function jsonBody(request: Request): Promise<unknown> {
  return request.json().catch(() => undefined);
}

function fieldProblem(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
}

type EditorBody = z.infer<typeof editorBodySchema>;

/** Reads the editor's text: its problems are the answer, else the definition goes to the API through `send`. */
function saveEditorText(
  body: EditorBody,
  send: (definition: unknown, note: string | undefined) => Promise<SuiteJson>,
): Promise<Response> {
  const reading = readSuiteText(body.text, body.format);
  if (!reading.ok) {
    const answer: SuiteEditorAnswer = { outcome: 'invalid', issues: reading.issues };
    return Promise.resolve(Response.json(answer, { headers: NO_STORE }));
  }
  const note = body.note?.trim();
  return relayFromApi(
    () => send(reading.definition, note === '' ? undefined : note),
    (suite) => Response.json({ outcome: 'saved', suite } satisfies SuiteEditorAnswer, { headers: NO_STORE }),
  );
}

/** `POST /suites/create` (`{format, text, note?}`): a new suite from the editor's text. */
export async function handleCreateSuite(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const parsed = editorBodySchema.safeParse(await jsonBody(request));
  if (!parsed.success) return consoleRefusal('invalid-input', fieldProblem(parsed.error));
  return saveEditorText(parsed.data, (definition, note) =>
    sendToApi(
      caller.signedIn.credential,
      { method: 'POST', path: qaPaths.suites, body: { definition, ...(note === undefined ? {} : { note }) } },
      suiteJsonSchema,
    ),
  );
}

const saveBodySchema = editorBodySchema.extend({ baseVersion: z.number().int().positive() }).strict();

/** `POST /suites/:id/save` (`{format, text, baseVersion, note?}`): the edited text as the suite's next version. */
export async function handleSaveSuite(request: Request, suiteId: string): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const parsed = saveBodySchema.safeParse(await jsonBody(request));
  if (!parsed.success) return consoleRefusal('invalid-input', fieldProblem(parsed.error));
  const { baseVersion } = parsed.data;
  return saveEditorText(parsed.data, (definition, note) =>
    sendToApi(
      caller.signedIn.credential,
      {
        method: 'PUT',
        path: qaPaths.suite(suiteId),
        body: { definition, baseVersion, ...(note === undefined ? {} : { note }) },
      },
      suiteJsonSchema,
    ),
  );
}

/**
 * A console mutation relayed as one API call with the same body: the caller signed in (the CSRF
 * check included), the body read with `bodySchema` (a 400 naming the fields), the API's answer
 * checked with `answerSchema`. `emptyBody` stands in for a request without one.
 */
async function relayMutation<Body>(
  request: Request,
  bodySchema: z.ZodType<Body>,
  call: { method: 'POST' | 'PUT'; path: string },
  answerSchema: z.ZodType,
  emptyBody?: Body,
): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const parsed = bodySchema.safeParse((await jsonBody(request)) ?? emptyBody);
  if (!parsed.success) return consoleRefusal('invalid-input', fieldProblem(parsed.error));
  return relayToApi(caller.signedIn.credential, { ...call, body: parsed.data }, answerSchema);
}

/** `POST /suites/import` (`{format: yaml|json|promptfoo, text}`): the API reads the file and lists what it could not carry over. */
export function handleImportSuite(request: Request): Promise<Response> {
  return relayMutation(
    request,
    importSuiteBodySchema,
    { method: 'POST', path: `${qaPaths.suites}/import` },
    importedSuiteJsonSchema,
  );
}

/**
 * `POST /suites/:id/import` (`{format, text, baseVersion, note?}`): a file as the suite's next
 * version (a stale baseVersion is the API's 409), with what it could not carry over.
 */
export function handleImportIntoSuite(request: Request, suiteId: string): Promise<Response> {
  return relayMutation(
    request,
    importIntoSuiteBodySchema,
    { method: 'POST', path: `${qaPaths.suite(suiteId)}/import` },
    importedSuiteJsonSchema,
  );
}

/** `POST /suites/:id/runs` (`{concurrency?}`): starts a run of the suite's latest version. */
export function handleStartRun(request: Request, suiteId: string): Promise<Response> {
  return relayMutation(
    request,
    startRunBodySchema,
    { method: 'POST', path: `${qaPaths.suite(suiteId)}/runs` },
    suiteRunJsonSchema,
    {},
  );
}

const labCaseBodySchema = z
  .object({
    labRunId: z.string().min(1).max(200),
    caseId: z.string().min(1).max(80),
    baseVersion: z.number().int().positive(),
  })
  .strict();

/** `POST /suites/:id/cases-from-lab` (`{labRunId, caseId, baseVersion}`): a lab run saved as a case of the suite. */
export function handleSaveLabRunAsCase(request: Request, suiteId: string): Promise<Response> {
  return relayMutation(
    request,
    labCaseBodySchema,
    { method: 'POST', path: `${qaPaths.suite(suiteId)}/cases-from-lab` },
    suiteJsonSchema,
  );
}
