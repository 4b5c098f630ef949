import type { ProviderName } from '@agentdesk/provider-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startReliabilityApi,
  type ReliabilityApi,
  type TurnMode,
  type TurnResponse,
} from './support/reliability-api';
import {
  attemptsOf,
  expectFailedAnswer,
  expectFailedTranscript,
  expectNextTurnSucceeds,
  providerModels,
  streamedText,
  textOf,
} from './support/turn-checks';

/**
 * Provider timeouts through `POST /v1/sessions/:id/messages`, with the shortest provider timeout the
 * API accepts (`AGENTDESK_PROVIDER_TIMEOUT_MS=1000`): a provider that never answers is tried 3 times
 * (timeouts are retryable), then the turn fails with a `timeout` error (HTTP 504 for JSON clients);
 * one timeout followed by an answer completes the turn.
 */

const providerTimeoutMs = 1000;
const environment = { AGENTDESK_PROVIDER_TIMEOUT_MS: String(providerTimeoutMs) };

/** Each provider exhausts its attempts in one mode and recovers in the other (timeouts cost real time). */
const exhaustedMode: Readonly<Record<ProviderName, TurnMode>> = {
  openai: 'json',
  anthropic: 'sse',
  gemini: 'json',
};
const otherMode = (mode: TurnMode): TurnMode => (mode === 'json' ? 'sse' : 'json');

describe('provider timeouts', () => {
  let api: ReliabilityApi;

  beforeAll(async () => {
    api = await startReliabilityApi(environment);
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => {
    api.test.emulator.reset();
  });

  describe.each(['openai', 'anthropic', 'gemini'] as const)('%s', (provider) => {
    const model = providerModels[provider];

    it(`${exhaustedMode[provider]}: a provider that never answers → 3 attempts, then a timeout error; nothing lost`, async () => {
      const mode = exhaustedMode[provider];
      const sessionId = await api.createSession(model);
      api.script({ kind: 'hang', times: 3, match: { provider } });
      const sent = `never answered (${mode})`;
      const response = await api.send(sessionId, sent, mode);

      expect(attemptsOf(api.test.emulator.requests, provider)).toBe(3);
      const failure = { provider, code: 'timeout' } as const;
      expectFailedAnswer(response, mode, failure);
      expectFailedTranscript(await api.transcript(sessionId), sent, failure);
      await expectNextTurnSucceeds(api, sessionId, provider, sent);
    });

    it(`${otherMode(exhaustedMode[provider])}: one timeout, then an answer → 2 attempts, complete`, async () => {
      const mode = otherMode(exhaustedMode[provider]);
      const sessionId = await api.createSession(model);
      api.script(
        { kind: 'hang', match: { provider } },
        { kind: 'text', text: 'answered on the second attempt', match: { provider } },
      );
      const response = await api.send(sessionId, 'slow provider', mode);

      expect(attemptsOf(api.test.emulator.requests, provider)).toBe(2);
      expect(response.statusCode).toBe(200);
      if (mode === 'sse') expect(response.events.at(-1)?.event).toBe('turn-end');
      const transcript = await api.transcript(sessionId);
      expect(transcript.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'complete'],
      ]);
      expect(textOf(transcript[1])).toBe('answered on the second attempt');
    });
  });
});

/**
 * A stream that stalls after some text (the connection stays open, nothing more arrives). The
 * provider timeout must end it: the turn fails with the streamed text kept and the session free.
 *
 * The OpenAI and Anthropic SDKs clear their timeout once the response headers arrive; the idle limit
 * of `executeChatCompletion` streams (the provider timeout) ends the silence. The turn is given many
 * times the provider timeout before the test calls it hung.
 */
describe('a stalled stream', () => {
  const hangDeadlineMs = 6 * providerTimeoutMs;

  async function stalledTurn(provider: ProviderName): Promise<void> {
    const api = await startReliabilityApi(environment);
    let pending: Promise<TurnResponse> | undefined;
    try {
      const sessionId = await api.createSession(providerModels[provider]);
      api.script({
        kind: 'text',
        text: 'an answer that stops arriving half-way',
        chunkSize: 4,
        streamFault: { kind: 'stall', afterChunks: 5 },
      });
      pending = api.send(sessionId, 'stall', 'sse');
      const response = await Promise.race([
        pending,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), hangDeadlineMs)),
      ]);
      expect(
        response,
        `the turn was still waiting on the stalled stream after ${hangDeadlineMs} ms`,
      ).not.toBe('hung');
      const answer = response as TurnResponse;
      expect(attemptsOf(api.test.emulator.requests, provider)).toBe(1);
      expect(answer.events.at(-1)?.event).toBe('error');
      const transcript = await api.transcript(sessionId);
      expect(transcript.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
      expect(textOf(transcript[1])).toBe(streamedText(answer));
      await expectNextTurnSucceeds(api, sessionId, provider, 'stall');
    } finally {
      // Closing the emulator drops the stalled connection, so a hung turn ends before its database closes.
      await api.test.emulator.close();
      await pending?.catch(() => undefined);
      await api.close();
    }
  }

  it('gemini: ends with an error event after the provider timeout', () => stalledTurn('gemini'));
  it('openai: ends with an error event after the provider timeout', () => stalledTurn('openai'));
  it('anthropic: ends with an error event after the provider timeout', () => stalledTurn('anthropic'));
});
