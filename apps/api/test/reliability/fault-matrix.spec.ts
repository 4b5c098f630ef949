import type { ProviderName, ScriptedReply } from '@agentdesk/provider-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReliabilityApi, type ReliabilityApi, type TurnMode } from './support/reliability-api';
import {
  attemptsOf,
  expectFailedAnswer,
  expectFailedTranscript,
  expectNextTurnSucceeds,
  providerModels,
  streamedText,
  textOf,
  type ExpectedFailure,
} from './support/turn-checks';

/**
 * Injected provider faults through `POST /v1/sessions/:id/messages`, JSON and SSE, on the three
 * providers. Each case asserts the number of upstream attempts the single retry policy makes
 * (3 attempts; retryable: 408/409/429/5xx/529, network errors, timeouts, a stream that breaks before
 * its first chunk; `retry-after` honoured within the 30 s budget), the HTTP answer or the SSE `error`
 * event, the transcript (user message complete, assistant failed with the provider's error), and that
 * the session takes the next turn with the user's earlier message in its history.
 *
 * JSON turns call the provider without streaming, so stream faults apply to SSE turns only.
 * Timeouts are in `provider-timeouts.spec.ts` (they need a short provider timeout).
 */

const providers: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];
const modes: readonly TurnMode[] = ['json', 'sse'];

/** The provider error code each emulated HTTP status arrives with. */
const httpErrorCodes: Readonly<Record<number, Readonly<Record<ProviderName, string>>>> = {
  400: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' },
  429: { openai: 'rate_limit_exceeded', anthropic: 'rate_limit_error', gemini: 'RESOURCE_EXHAUSTED' },
  500: { openai: 'server_error', anthropic: 'api_error', gemini: 'INTERNAL' },
  503: { openai: 'server_error', anthropic: 'api_error', gemini: 'UNAVAILABLE' },
  529: { openai: 'server_error', anthropic: 'overloaded_error', gemini: 'provider_error' },
};

/** An in-stream error event sent as an Anthropic `overloaded_error` (HTTP status equivalent 529). */
const inStreamErrors: Readonly<Record<ProviderName, Omit<ExpectedFailure, 'provider'>>> = {
  openai: { code: 'server_error' },
  anthropic: { code: 'overloaded_error', status: 529 },
  gemini: { code: 'INTERNAL', status: 529 },
};

const longAnswer = 'a streamed answer long enough to be cut in the middle';

interface FailingCase {
  readonly name: string;
  readonly modes: readonly TurnMode[];
  readonly replies: ScriptedReply[];
  readonly attempts: number;
  readonly failure: (provider: ProviderName) => Omit<ExpectedFailure, 'provider'>;
  /** The stream broke after some text: that text is kept on the failed message. */
  readonly partial?: boolean;
}

const httpError = (status: number, extra: Partial<ScriptedReply> = {}): ScriptedReply =>
  ({ kind: 'error', status, retryAfterSeconds: 0, times: 3, ...extra }) as ScriptedReply;

const failingCases: readonly FailingCase[] = [
  {
    name: '429 with retry-after: 0, every attempt',
    modes,
    replies: [httpError(429)],
    attempts: 3,
    failure: (provider) => ({ code: httpErrorCodes[429]![provider], status: 429 }),
  },
  {
    name: '429 whose retry-after (60 s) exceeds the 30 s wait budget: no retry',
    modes,
    replies: [{ kind: 'error', status: 429, retryAfterSeconds: 60 }],
    attempts: 1,
    failure: (provider) => ({ code: httpErrorCodes[429]![provider], status: 429 }),
  },
  {
    name: '500, every attempt',
    modes,
    replies: [httpError(500)],
    attempts: 3,
    failure: (provider) => ({ code: httpErrorCodes[500]![provider], status: 500 }),
  },
  {
    name: '503 without retry-after (exponential backoff), every attempt',
    modes: ['json'],
    replies: [{ kind: 'error', status: 503, times: 3 }],
    attempts: 3,
    failure: (provider) => ({ code: httpErrorCodes[503]![provider], status: 503 }),
  },
  {
    name: '503, every attempt',
    modes: ['sse'],
    replies: [httpError(503)],
    attempts: 3,
    failure: (provider) => ({ code: httpErrorCodes[503]![provider], status: 503 }),
  },
  {
    name: '529 overloaded, every attempt',
    modes,
    replies: [httpError(529)],
    attempts: 3,
    failure: (provider) => ({ code: httpErrorCodes[529]![provider], status: 529 }),
  },
  {
    name: '400 (not retryable)',
    modes,
    replies: [{ kind: 'error', status: 400, times: 3 }],
    attempts: 1,
    failure: (provider) => ({ code: httpErrorCodes[400]![provider], status: 400 }),
  },
  {
    name: 'a stream cut mid-way (after text was streamed: no retry)',
    modes: ['sse'],
    replies: [
      {
        kind: 'text',
        text: longAnswer,
        chunkSize: 4,
        streamFault: { kind: 'cut', afterChunks: 5 },
        times: 3,
      },
    ],
    attempts: 1,
    failure: () => ({ code: 'network_error' }),
    partial: true,
  },
  {
    name: 'malformed JSON mid-stream',
    modes: ['sse'],
    replies: [
      {
        kind: 'text',
        text: longAnswer,
        chunkSize: 4,
        streamFault: { kind: 'malformed', afterChunks: 5 },
        times: 3,
      },
    ],
    attempts: 1,
    failure: () => ({ code: 'malformed_response' }),
    partial: true,
  },
  {
    name: 'an in-stream error event mid-stream',
    modes: ['sse'],
    replies: [
      {
        kind: 'text',
        text: longAnswer,
        chunkSize: 4,
        streamFault: { kind: 'error-event', afterChunks: 5, status: 529 },
        times: 3,
      },
    ],
    attempts: 1,
    failure: (provider) => inStreamErrors[provider],
    partial: true,
  },
];

interface RecoveringCase {
  readonly name: string;
  readonly modes: readonly TurnMode[];
  readonly replies: ScriptedReply[];
  readonly attempts: number;
}

const recovered = 'recovered after the fault';

const recoveringCases: readonly RecoveringCase[] = [
  {
    name: '429 twice with retry-after: 0, then an answer',
    modes,
    replies: [httpError(429, { times: 2 }), { kind: 'text', text: recovered }],
    attempts: 3,
  },
  {
    name: '503 then 529, then an answer',
    modes,
    replies: [httpError(503, { times: 1 }), httpError(529, { times: 1 }), { kind: 'text', text: recovered }],
    attempts: 3,
  },
  {
    name: 'a stream cut before its first chunk, then an answer',
    modes: ['sse'],
    replies: [
      { kind: 'text', text: longAnswer, streamFault: { kind: 'cut', afterChunks: 0 } },
      { kind: 'text', text: recovered },
    ],
    attempts: 2,
  },
  {
    name: 'malformed JSON as the first stream event, then an answer',
    modes: ['sse'],
    replies: [
      { kind: 'text', text: longAnswer, streamFault: { kind: 'malformed', afterChunks: 0 } },
      { kind: 'text', text: recovered },
    ],
    attempts: 2,
  },
];

describe('provider faults through POST /v1/sessions/:id/messages', () => {
  let api: ReliabilityApi;

  beforeAll(async () => {
    api = await startReliabilityApi();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => {
    api.test.emulator.reset();
  });

  describe.each(providers)('%s', (provider) => {
    const model = providerModels[provider];

    for (const fault of failingCases) {
      for (const mode of fault.modes) {
        it(`${mode}: ${fault.name} → ${fault.attempts} attempt(s), then a clear error; nothing lost`, async () => {
          const sessionId = await api.createSession(model);
          api.script(...fault.replies.map((reply) => ({ ...reply, match: { provider } })));
          const sent = `${fault.name} (${mode})`;
          const response = await api.send(sessionId, sent, mode);

          expect(attemptsOf(api.test.emulator.requests, provider)).toBe(fault.attempts);
          const failure: ExpectedFailure = { provider, ...fault.failure(provider) };
          expectFailedAnswer(response, mode, failure);
          const transcript = await api.transcript(sessionId);
          const partial = fault.partial ? streamedText(response) : '';
          if (fault.partial) {
            expect(partial.length).toBeGreaterThan(0);
            expect(longAnswer.startsWith(partial) && partial !== longAnswer).toBe(true);
          }
          expectFailedTranscript(transcript, sent, failure, partial);
          if (mode === 'sse') {
            expect(response.events.at(-1)!.data['messageIds']).toEqual(
              transcript.map((message) => message.id),
            );
          }
          await expectNextTurnSucceeds(api, sessionId, provider, sent);
        });
      }
    }

    for (const fault of recoveringCases) {
      for (const mode of fault.modes) {
        it(`${mode}: ${fault.name} → ${fault.attempts} attempts, one complete answer`, async () => {
          const sessionId = await api.createSession(model);
          api.script(...fault.replies.map((reply) => ({ ...reply, match: { provider } })));
          const response = await api.send(sessionId, fault.name, mode);

          expect(attemptsOf(api.test.emulator.requests, provider)).toBe(fault.attempts);
          expect(response.statusCode).toBe(200);
          if (mode === 'json')
            expect(response.response.json()).toMatchObject({ status: 'complete', text: recovered });
          else {
            expect(response.events.at(-1)?.event).toBe('turn-end');
            expect(response.events.map((event) => event.event)).not.toContain('error');
            // Only the successful attempt's text reached the client: a retry never repeats output.
            expect(streamedText(response)).toBe(recovered);
          }
          const transcript = await api.transcript(sessionId);
          expect(transcript.map((message) => [message.role, message.status])).toEqual([
            ['user', 'complete'],
            ['assistant', 'complete'],
          ]);
          expect(textOf(transcript[1])).toBe(recovered);
        });
      }
    }

    it('json: 429 with retry-after: 1 → the retry waits at least the server’s delay, then succeeds', async () => {
      const sessionId = await api.createSession(model);
      api.script(
        { kind: 'error', status: 429, retryAfterSeconds: 1, match: { provider } },
        { kind: 'text', text: recovered, match: { provider } },
      );
      const response = await api.send(sessionId, 'retry after one second', 'json');

      expect(response.response.json()).toMatchObject({ status: 'complete', text: recovered });
      const attempts = api.test.emulator.requests.filter((request) => request.provider === provider);
      expect(attempts).toHaveLength(2);
      // The server asked for one second; the policy must not retry earlier (timer granularity: 1 ms).
      expect(attempts[1]!.receivedAt - attempts[0]!.receivedAt).toBeGreaterThanOrEqual(999);
    });

    for (const mode of modes) {
      it(`${mode}: a fault after a tool call fails the turn but keeps the call and its result paired`, async () => {
        const sessionId = await api.createSession(model);
        api.script(
          {
            kind: 'tool-calls',
            toolCalls: [
              { name: 'read_tool_result', arguments: { id: 'nothing-stored', offset: 0, limit: 100 } },
            ],
            match: { provider },
          },
          { ...httpError(503), match: { provider } },
        );
        const sent = `tool call, then a fault (${mode})`;
        const response = await api.send(sessionId, sent, mode);

        expect(attemptsOf(api.test.emulator.requests, provider)).toBe(1 + 3);
        const failure: ExpectedFailure = { provider, code: httpErrorCodes[503]![provider], status: 503 };
        expectFailedAnswer(response, mode, failure);
        if (mode === 'sse') {
          const names = response.events.map((event) => event.event);
          expect(names.indexOf('tool-call')).toBeLessThan(names.indexOf('tool-result'));
          expect(names.indexOf('tool-result')).toBeLessThan(names.indexOf('error'));
        }
        const transcript = await api.transcript(sessionId);
        expect(transcript.map((message) => [message.role, message.status])).toEqual([
          ['user', 'complete'],
          ['assistant', 'complete'],
          ['tool', 'complete'],
          ['assistant', 'failed'],
        ]);
        const calls = transcript[1]!.toolCalls ?? [];
        expect(calls).toHaveLength(1);
        expect(transcript[2]!.toolCallId).toBe(calls[0]!['id']);
        expect(transcript[3]!.error).toMatchObject({ provider, status: 503 });
        await expectNextTurnSucceeds(api, sessionId, provider, sent);
      });
    }
  });
});
