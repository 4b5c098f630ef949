import {
  pageJsonSchema,
  runJsonSchema,
  runSummaryJsonSchema,
  type PageJson,
  type RunJson,
  type RunSummaryJson,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';

export const RUN_HISTORY_SIZE = 20;

const runsPageSchema = pageJsonSchema(runSummaryJsonSchema);

/** The latest runs, newest first (the API records the listing in the audit log). */
export function listRuns(
  credential: ApiCredential,
  cursor: string | undefined,
): Promise<PageJson<RunSummaryJson>> {
  return getFromApi(
    credential,
    '/v1/admin/structured-output/runs',
    { ...pageQuery(cursor, RUN_HISTORY_SIZE), reason: 'console: lab run history' },
    runsPageSchema,
  );
}

/** One run with every target's result (reading another person's run is audited by the API). */
export function readRun(credential: ApiCredential, runId: string): Promise<RunJson> {
  return getFromApi(
    credential,
    `/v1/admin/structured-output/runs/${encodeURIComponent(runId)}`,
    { reason: 'console: lab run' },
    runJsonSchema,
  );
}

/** The three families the lab compares; each row of the form picks one model of a family. */
export const targetFamilies = ['gpt', 'claude', 'gemini'] as const;
export type TargetFamily = (typeof targetFamilies)[number];

const fallbackModels: Record<TargetFamily, string> = {
  gpt: 'gpt-4o-mini',
  claude: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
};

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * A model per family to prefill the form with: the first this server lists (`GET /v1/models`), else
 * a well-known name. Best effort — a key that may not list models still gets the form.
 */
export async function suggestedModels(credential: ApiCredential): Promise<Record<TargetFamily, string>> {
  const listed = await getFromApi(credential, '/v1/models', {}, modelListSchema).then(
    (list) => list.data.map((model) => model.id),
    () => [] as string[],
  );
  const pick = (family: TargetFamily) =>
    listed.find((id) => id.startsWith(`${family}-`)) ?? fallbackModels[family];
  return { gpt: pick('gpt'), claude: pick('claude'), gemini: pick('gemini') };
}
