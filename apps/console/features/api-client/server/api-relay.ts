import { errorBodySchema } from '@agentdesk/api-contract';
import type { z } from 'zod';
import {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  credentialHeaders,
  sendToApi,
  type ApiCredential,
} from './api-client';
import { NO_STORE, consoleRefusal } from './console-refusal';

/**
 * The one translation of a failed API call into a route handler's answer: the API's refusal goes
 * back with its own status, code and message — the API decides, the console never second-guesses
 * it — and an unreachable API is `api-unreachable`. Anything else is a bug and is thrown.
 */
export function relayedRefusal(error: unknown): Response {
  if (error instanceof ApiRequestError) {
    const body = { error: { code: error.code, message: error.message, requestId: null } };
    return Response.json(body, { status: error.status, headers: NO_STORE });
  }
  if (error instanceof ApiUnavailableError) return consoleRefusal('api-unreachable', error.message);
  throw error;
}

/**
 * A route handler's work with the API (one call or several, each answer checked against the
 * contract by `getFromApi`/`sendToApi`), turned into its answer by `answer`; a failed call is
 * answered by `relayedRefusal`. Reads that reshape the API's data (a transcript page, an export) use
 * this directly; plain mutations use `relayToApi`.
 */
export async function relayFromApi<Data>(
  work: () => Promise<Data>,
  answer: (data: Data) => Response,
): Promise<Response> {
  let data: Data;
  try {
    data = await work();
  } catch (error) {
    return relayedRefusal(error);
  }
  return answer(data);
}

export interface RelayedCall {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Sent as JSON; undefined sends no body. */
  body?: unknown;
}

/**
 * A mutation a console route handler makes for the signed-in person: the call goes to the API with
 * their console session, and the API's answer is checked against the shared contract here, on the
 * server, before it goes back to the browser — the checked data (204 when the API answers nothing),
 * or the API's refusal as its error body. Because every answer is checked here, the browser's code
 * reads it typed without a schema of its own.
 */
export function relayToApi<Schema extends z.ZodType>(
  credential: ApiCredential,
  call: RelayedCall,
  answerSchema: Schema,
): Promise<Response> {
  return relayFromApi(
    () => sendToApi(credential, call, answerSchema),
    (data) =>
      data === undefined
        ? new Response(null, { status: 204, headers: NO_STORE })
        : Response.json(data, { headers: NO_STORE }),
  );
}

/**
 * A Server-Sent Events stream of the API, passed through to the browser as it arrives (no buffering),
 * each event checked on the way by `checkEvents`: the browser talks to the console, which holds the
 * session. A refusal before the stream starts (404, 403) is relayed as the API's JSON.
 */
export async function relayEventStream(
  credential: ApiCredential,
  path: string,
  signal: AbortSignal,
  checkEvents: (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${path}`, {
      headers: { ...credentialHeaders(credential), accept: 'text/event-stream' },
      cache: 'no-store',
      signal,
    });
  } catch {
    return consoleRefusal('api-unreachable', `The API at ${apiBaseUrl()} cannot be reached`);
  }
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (!response.ok || !isStream || response.body === null) {
    const refusal = errorBodySchema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok && refusal.success)
      return Response.json(refusal.data, { status: response.status, headers: NO_STORE });
    return consoleRefusal('api-unreachable', `The API answered ${response.status} without an event stream`);
  }
  return new Response(checkEvents(response.body), {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
