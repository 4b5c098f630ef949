import { ApiErrorCode, type ErrorBody } from '@agentdesk/api-contract';
import { apiBaseUrl } from './api-client';

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

/**
 * A mutation a console route handler makes for the signed-in person: the call goes to the API with
 * their key, and the API's answer (status and JSON body, refusals included) goes back to the browser
 * as it is. The API decides; the console never second-guesses a refusal.
 */
export async function relayToApi(apiKey: string, call: RelayedCall): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${call.path}`, {
      method: call.method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        ...(call.body !== undefined && { 'content-type': 'application/json' }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      cache: 'no-store',
    });
  } catch (error) {
    return unreachable(error);
  }
  const text = await response.text();
  return new Response(text === '' ? null : text, {
    status: response.status,
    headers: {
      'content-type': response.headers.get('content-type') ?? 'application/json',
      'cache-control': 'no-store',
    },
  });
}

/**
 * A Server-Sent Events stream of the API, passed through to the browser as it arrives (no buffering):
 * the browser's EventSource talks to the console, which holds the key. A refusal before the stream
 * starts (404, 403) is relayed as the API's JSON.
 */
export async function relayEventStream(apiKey: string, path: string, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${path}`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    return unreachable(error);
  }
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (!response.ok || !isStream || response.body === null)
    return new Response(await response.text(), {
      status: response.ok ? 502 : response.status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  return new Response(response.body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
