import { readFile } from 'node:fs/promises';
import { importedSuiteJsonSchema, pageJsonSchema, suiteSummaryJsonSchema } from '@agentdesk/api-contract';

/** The checked-in demo suite: `npm start` creates it, the README's CI example runs it. */
export const DEMO_SUITE_FILE = new URL('./qa-demo-suite.yaml', import.meta.url);
export const DEMO_SUITE_NAME = 'Demo: structured extraction';

/** What happened to the demo suite at this start, for the start banner. */
export type DemoSuiteOutcome =
  | { kind: 'created'; suiteId: string }
  | { kind: 'present'; suiteId: string }
  | { kind: 'failed'; message: string };

/**
 * Creates the demo suite through the REST API (audited like any import) unless a suite of that
 * name exists. Never throws: a start must not fail over a demo.
 */
export async function seedDemoSuite(apiUrl: string, adminKey: string): Promise<DemoSuiteOutcome> {
  const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  try {
    const listing = await fetch(`${apiUrl}/v1/qa/suites?name=${encodeURIComponent(DEMO_SUITE_NAME)}`, {
      headers,
    });
    if (!listing.ok) return { kind: 'failed', message: `GET /v1/qa/suites answered ${listing.status}` };
    const page = pageJsonSchema(suiteSummaryJsonSchema).parse(await listing.json());
    const existing = page.items.find((suite) => suite.name === DEMO_SUITE_NAME);
    if (existing !== undefined) return { kind: 'present', suiteId: existing.id };
    const text = await readFile(DEMO_SUITE_FILE, 'utf8');
    const created = await fetch(`${apiUrl}/v1/qa/suites/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ format: 'yaml', text }),
    });
    if (!created.ok) {
      return {
        kind: 'failed',
        message: `POST /v1/qa/suites/import answered ${created.status}: ${await created.text()}`,
      };
    }
    const imported = importedSuiteJsonSchema.parse(await created.json());
    return { kind: 'created', suiteId: imported.suite.id };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
