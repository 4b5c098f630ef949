import type { ProviderName, RecordedRequest } from '@agentdesk/provider-emulator';
import { expect } from 'vitest';
import type { MessageJson } from '@agentdesk/api-contract';
import type { ReliabilityApi, TurnMode, TurnResponse } from './reliability-api';

/** The emulator model names of the three providers. */
export const providerModels: Readonly<Record<ProviderName, string>> = {
  openai: 'gpt-test',
  anthropic: 'claude-test',
  gemini: 'gemini-test',
};

/** What a failed turn must say about its upstream error. */
export interface ExpectedFailure {
  readonly provider: ProviderName;
  /** The provider's error code as recorded (e.g. `rate_limit_exceeded`, `overloaded_error`, `timeout`). */
  readonly code: string;
  /** HTTP status of the provider's answer; absent for network errors, timeouts and in-stream errors. */
  readonly status?: number;
}

export const textOf = (message: MessageJson | undefined): string =>
  (message?.contentParts ?? [])
    .map((part) => (part['type'] === 'text' ? String(part['text'] ?? '') : ''))
    .join('');

/** The concatenated `text-delta` events of a streamed turn. */
export const streamedText = (response: TurnResponse): string =>
  response.events
    .filter((event) => event.event === 'text-delta')
    .map((event) => String(event.data['text']))
    .join('');

/** Recorded provider requests of one provider (the upstream attempts). */
export const attemptsOf = (requests: readonly RecordedRequest[], provider: ProviderName): number =>
  requests.filter((request) => request.provider === provider).length;

/**
 * The answer of a failed turn: JSON → 502 (504 for a timeout) naming the provider's error and the
 * recorded turn; SSE → `turn-start` first, `error` last (no `turn-end`) with the provider's error and
 * the ids of every message the turn wrote.
 */
export function expectFailedAnswer(response: TurnResponse, mode: TurnMode, failure: ExpectedFailure): void {
  if (mode === 'json') {
    const timeout = failure.code === 'timeout';
    expect(response.statusCode).toBe(timeout ? 504 : 502);
    const body = response.response.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe(timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_FAILED');
    expect(body.error.message).toContain(`${failure.provider}:`);
    expect(body.error.message).toContain('recorded as failed');
    return;
  }
  expect(response.statusCode).toBe(200);
  const names = response.events.map((event) => event.event);
  expect(names[0]).toBe('turn-start');
  expect(names.at(-1)).toBe('error');
  expect(names).not.toContain('turn-end');
  expect(names.filter((name) => name === 'error')).toHaveLength(1);
  const error = response.events.at(-1)!.data;
  expect(error['error']).toMatchObject({
    provider: failure.provider,
    code: failure.code,
    ...(failure.status !== undefined && { status: failure.status }),
  });
  expect(error['turnId']).toBe(response.events[0]!.data['turnId']);
}

/**
 * The transcript after a failed single-call turn: the user's message complete and verbatim, then the
 * assistant message `failed` with the provider's error (and, for a stream that broke mid-way, exactly
 * the text that was streamed before the break).
 */
export function expectFailedTranscript(
  transcript: readonly MessageJson[],
  sent: string,
  failure: ExpectedFailure,
  partialText = '',
): void {
  expect(transcript.map((message) => [message.role, message.status])).toEqual([
    ['user', 'complete'],
    ['assistant', 'failed'],
  ]);
  expect(textOf(transcript[0])).toBe(sent);
  expect(transcript[1]!.error).toMatchObject({
    provider: failure.provider,
    code: failure.code,
    message: expect.any(String),
    ...(failure.status !== undefined && { status: failure.status }),
  });
  expect(textOf(transcript[1])).toBe(partialText);
}

/** The message texts a provider request carried, in order (system, user, assistant, tool results). */
export function requestTexts(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? null);
}

/**
 * After a failure the session takes the next turn, and the model sees the failed turn's user message
 * (nothing the user sent is lost) but not the failed answer.
 */
export async function expectNextTurnSucceeds(
  api: ReliabilityApi,
  sessionId: string,
  provider: ProviderName,
  earlier: string,
): Promise<void> {
  api.test.emulator.reset();
  api.script({ kind: 'text', text: 'next turn answered' });
  const next = await api.send(sessionId, 'and now?', 'json');
  expect(next.statusCode).toBe(200);
  expect(next.response.json()).toMatchObject({ status: 'complete', text: 'next turn answered' });
  const upstream = api.test.emulator.lastRequest(provider);
  expect(requestTexts(upstream)).toContain(earlier);
}
