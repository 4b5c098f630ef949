import { ApiErrorCode, errorBodySchema, type ErrorBody } from '@agentdesk/api-contract';
import type { z } from 'zod';
import {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  credentialHeaders,
  sendToApi,
  type ApiCredential,
} from './api-client';

/** A refusal the console itself answers with, in the API's own error body (the browser reads one shape). */
export function consoleRefusal(status: number, code: ApiErrorCode, message: string): Response {
  const body: ErrorBody = { error: { code, message, requestId: null } };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

function unreachable(error: unknown): Response {
  void error;
  return consoleRefusal(502, ApiErrorCode.UpstreamFailed, `The API at ${apiBaseUrl()} cannot be reached`);
}

export interface RelayedCall {
  method: 'POST' | 'DELETE';
  path: string;
  /** Sent as JSON; undefined sends no body. */
  body?: unknown;
}

const noStore = { 'cache-control': 'no-store' };

/**
 * A mutation a console route handler makes for the signed-in person: the call goes to the API with
 * their console session, and the API's answer is checked against the shared contract here, on the server, before
 * it goes back to the browser — the checked data (204 when the API answers nothing), or the API's
 * refusal as its error body. The API decides; the console never second-guesses a refusal. Because
 * every answer is checked here, the browser's code reads it typed without a schema of its own.
 */
export async function relayToApi<Schema extends z.ZodType>(
  credential: ApiCredential,
  call: RelayedCall,
  answerSchema: Schema,
): Promise<Response> {
  let data: z.output<Schema>;
  try {
    data = await sendToApi(credential, call, answerSchema);
  } catch (error) {
    if (error instanceof ApiRequestError) {
      const body = { error: { code: error.code, message: error.message, requestId: null } };
      return Response.json(body, { status: error.status, headers: noStore });
    }
    if (error instanceof ApiUnavailableError)
      return consoleRefusal(502, ApiErrorCode.UpstreamFailed, error.message);
    throw error;
  }
  return data === undefined
    ? new Response(null, { status: 204, headers: noStore })
    : Response.json(data, { headers: noStore });
}

/**
 * A Server-Sent Events stream of the API, passed through to the browser as it arrives (no buffering),
 * each event checked on the way by `checkEvents`: the browser talks to the console, which holds the session. A refusal before the stream
 * starts (404, 403) is relayed as the API's JSON.
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
  } catch (error) {
    return unreachable(error);
  }
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (!response.ok || !isStream || response.body === null) {
    const refusal = errorBodySchema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok && refusal.success)
      return Response.json(refusal.data, { status: response.status, headers: noStore });
    return consoleRefusal(
      502,
      ApiErrorCode.UpstreamFailed,
      `The API answered ${response.status} without an event stream`,
    );
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
