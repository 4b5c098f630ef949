import { runJsonSchema } from '@agentdesk/api-contract';
import { consoleRefusal, relayToApi } from '../../api-client';
import { routeCaller } from '../../auth';

/**
 * `POST /lab/runs` (JSON body as the API's run route takes it): runs the schema on every target
 * through the API and answers the finished run. The API validates the body and names any bad field.
 */
export async function handleCreateRun(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const body: unknown = await request.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return consoleRefusal('invalid-input', 'body: must be a JSON object');
  return relayToApi(
    caller.signedIn.credential,
    {
      method: 'POST',
      path: '/v1/admin/structured-output/runs',
      body,
    },
    runJsonSchema,
  );
}
