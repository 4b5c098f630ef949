import { runProgressEventSchema, suiteRunJsonSchema } from '@agentdesk/api-contract';
import {
  NO_STORE,
  apiBaseUrl,
  consoleRefusal,
  credentialHeaders,
  relayEventStream,
  relayToApi,
} from '../../api-client';
import { routeCaller } from '../../auth';
import { checkedEventStream } from '../../event-stream';
import { qaPaths } from './read-suites';

/**
 * `GET /suites/runs/:runId/events`: the run's progress as Server-Sent Events (a snapshot, then
 * batches of finished cells, then `finished`), the API's stream relayed event by event as it arrives.
 */
export async function handleRunEvents(request: Request, runId: string): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  return relayEventStream(
    caller.signedIn.credential,
    `${qaPaths.run(runId)}/events`,
    request.signal,
    (body) => checkedEventStream(body, runProgressEventSchema),
  );
}

/** `POST /suites/runs/:runId/cancel`: stops the run; cells already running finish and are counted. */
export async function handleCancelRun(request: Request, runId: string): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  return relayToApi(
    caller.signedIn.credential,
    { method: 'POST', path: `${qaPaths.run(runId)}/cancel`, body: {} },
    suiteRunJsonSchema,
  );
}

/**
 * `GET /suites/:id/export?format=yaml|json&version=N`: the suite file as the API writes it, relayed
 * with its file name (a link the browser downloads).
 */
export async function handleSuiteExport(request: Request, suiteId: string): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'yaml';
  if (format !== 'yaml' && format !== 'json')
    return consoleRefusal('invalid-input', 'format: must be yaml or json');
  const version = url.searchParams.get('version');
  if (version !== null && !/^[1-9]\d{0,8}$/.test(version))
    return consoleRefusal('invalid-input', 'version: must be a version number');
  const query = new URLSearchParams({ format, ...(version === null ? {} : { version }) });
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${qaPaths.suite(suiteId)}/export?${query.toString()}`, {
      headers: credentialHeaders(caller.signedIn.credential),
      cache: 'no-store',
      signal: request.signal,
    });
  } catch {
    return consoleRefusal('api-unreachable', `The API at ${apiBaseUrl()} cannot be reached`);
  }
  return new Response(response.body, {
    status: response.status,
    headers: {
      'content-type': response.headers.get('content-type') ?? 'application/octet-stream',
      ...(response.ok
        ? {
            'content-disposition':
              response.headers.get('content-disposition') ?? `attachment; filename="suite.${format}"`,
          }
        : {}),
      ...NO_STORE,
    },
  });
}
