import {
  pinReportJsonSchema,
  rebuildAcceptedJsonSchema,
  rebuildRequestJsonSchema,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { consoleRefusal, relayEventStream, relayToApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { checkedBuildEventStream } from './checked-build-events';

const buildIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const containerIdPattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,199}$/;

/** `POST /sandbox/rebuild` (JSON `{force}`): starts a build through the API; answers its build id. */
export async function handleRebuild(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = rebuildRequestJsonSchema.safeParse(body);
  if (!parsed.success) return consoleRefusal('invalid-input', 'body.force: must be true or false');
  return relayToApi(
    caller.signedIn.credential,
    {
      method: 'POST',
      path: '/v1/admin/sandbox/image/rebuild',
      body: parsed.data ?? {},
    },
    rebuildAcceptedJsonSchema,
  );
}

/** `POST /sandbox/repin`: re-creates the pin container when missing or stale; answers the outcome. */
export async function handleRepin(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  return relayToApi(
    caller.signedIn.credential,
    {
      method: 'POST',
      path: '/v1/admin/sandbox/image/repin',
      body: {},
    },
    pinReportJsonSchema,
  );
}

/** `DELETE /sandbox/containers/:id`: removes one container (204, like the API). */
export async function handleRemoveContainer(request: Request, containerId: string): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  if (!containerIdPattern.test(containerId))
    return consoleRefusal('invalid-input', 'id: must be a container id or name as listed');
  return relayToApi(
    caller.signedIn.credential,
    {
      method: 'DELETE',
      path: `/v1/admin/sandbox/containers/${encodeURIComponent(containerId)}`,
    },
    z.undefined(),
  );
}

/** `GET /sandbox/builds/:id/events`: the build's log as Server-Sent Events, replayed then live. */
export async function handleBuildEvents(request: Request, buildId: string): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  if (!buildIdPattern.test(buildId)) return consoleRefusal('invalid-input', 'id: must be a build id (UUID)');
  return relayEventStream(
    caller.signedIn.credential,
    `/v1/admin/sandbox/builds/${buildId}/events`,
    request.signal,
    checkedBuildEventStream,
  );
}
