import { NO_STORE, consoleRefusal } from '../../api-client';
import { routeCaller } from '../../auth';
import { checkSchemaText } from '../schema-check';

/** Far above any schema a person edits here; the API's own body limit is 1 MiB. */
const MAX_SCHEMA_TEXT_LENGTH = 256 * 1024;

/**
 * `POST /lab/schema-check` (JSON `{ text }`): the lab editor's live check of its schema text. It
 * runs here, not in the browser: ajv builds its meta-schema validator with `new Function`, which
 * the console's Content-Security-Policy (no `'unsafe-eval'`) refuses in a page.
 */
export async function handleSchemaCheck(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const body: unknown = await request.json().catch(() => undefined);
  const text = typeof body === 'object' && body !== null ? (body as { text?: unknown }).text : undefined;
  if (typeof text !== 'string' || text.length > MAX_SCHEMA_TEXT_LENGTH)
    return consoleRefusal(
      'invalid-input',
      `text: must be the schema's text, at most ${MAX_SCHEMA_TEXT_LENGTH.toLocaleString('en-US')} characters`,
    );
  return Response.json(checkSchemaText(text), { headers: NO_STORE });
}
