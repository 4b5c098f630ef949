import { can } from '@agentdesk/authz';
import { consoleSessionJsonSchema, endedConsoleSessionsJsonSchema } from '@agentdesk/api-contract';
import type { z } from 'zod';
import { ApiRequestError, sendToApi, type ApiCredential } from '../../api-client';
import { routeCaller } from '../../auth';
import { consoleSessionsHref, type ConsoleSessionOutcome } from '../console-session-view';

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store' } });
}

function backToPage(outcome: ConsoleSessionOutcome, userId?: string): Response {
  const page = consoleSessionsHref({ includeEnded: false, ...(userId === undefined ? {} : { userId }) });
  return seeOther(`${page}${page.includes('?') ? '&' : '?'}done=${outcome}`);
}

function outcomeOf(error: unknown): ConsoleSessionOutcome {
  if (error instanceof ApiRequestError && error.status === 404) return 'not-found';
  if (error instanceof ApiRequestError && error.status === 403) return 'forbidden';
  if (error instanceof ApiRequestError && error.status === 400) return 'invalid';
  return 'api-unavailable';
}

/**
 * The common part of both actions: a same-origin form post (CSRF), a signed-in person whose role may
 * end sign-ins (checked here and again by the API), and the id the form names.
 */
async function formAction(
  request: Request,
  field: 'sessionId' | 'userId',
  act: (credential: ApiCredential, id: string) => Promise<Response>,
): Promise<Response> {
  const caller = await routeCaller(request, 'form-post');
  if (!caller.ok) return caller.refusal;
  if (!can(caller.signedIn.principal, 'console-sessions:write')) return backToPage('forbidden');
  const form = await request.formData().catch(() => null);
  const id = form?.get(field);
  if (typeof id !== 'string' || !idPattern.test(id)) return backToPage('invalid');
  return act(caller.signedIn.credential, id);
}

/** `POST /console-sessions/end` (form field `sessionId`): ends one sign-in, then back to the list. */
export function handleEndConsoleSession(request: Request): Promise<Response> {
  return formAction(request, 'sessionId', async (credential, sessionId) => {
    let ended: z.output<typeof consoleSessionJsonSchema>;
    try {
      ended = await sendToApi(
        credential,
        { method: 'DELETE', path: `/v1/admin/console-sessions/${sessionId}` },
        consoleSessionJsonSchema,
      );
    } catch (error) {
      return backToPage(outcomeOf(error));
    }
    return backToPage('ended-one', ended.userId);
  });
}

/** `POST /console-sessions/end-all` (form field `userId`): signs a person out everywhere. */
export function handleEndAllConsoleSessions(request: Request): Promise<Response> {
  return formAction(request, 'userId', async (credential, userId) => {
    try {
      await sendToApi(
        credential,
        { method: 'DELETE', path: `/v1/admin/users/${userId}/console-sessions` },
        endedConsoleSessionsJsonSchema,
      );
    } catch (error) {
      return backToPage(outcomeOf(error), userId);
    }
    return backToPage('ended-all', userId);
  });
}
