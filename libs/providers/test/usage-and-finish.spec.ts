import { describe, expect, it } from 'vitest';
import { executeChatCompletion, type ProviderName } from '../src';
import { collect, createClients, models, providerNames, useEmulator } from './support/emulator-clients';

const ask = { messages: [{ role: 'user' as const, content: 'x' }] };

describe('usage is normalized per the wire facts', () => {
  const { emulator, clients } = useEmulator();
  const usage = {
    inputTokens: 100,
    cachedInputTokens: 40,
    cacheCreationInputTokens: 10,
    outputTokens: 30,
    reasoningTokens: 12,
  };

  // OpenAI prompt includes cached and completion includes reasoning; Anthropic input is the sum of
  // three disjoint counts and thinking sits inside output; Gemini reports thoughts beside candidates.
  const expected: Record<ProviderName, object> = {
    openai: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 18, thinkingTokens: 12 },
    anthropic: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 18, thinkingTokens: 12 },
    gemini: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 18, thinkingTokens: 12 },
  };

  it.each(providerNames)('%s, non-streaming and streaming agree', async (provider) => {
    emulator().script({ kind: 'text', text: 'hello', usage }, { kind: 'text', text: 'hello', usage });
    const result = await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      ...ask,
    });
    expect(result.usage).toEqual(expected[provider]);
    const parts = await collect(
      executeChatCompletion(clients()[provider], {
        modelParams: { model: models[provider] },
        ...ask,
        stream: true,
      }),
    );
    expect(parts.find((part) => part.type === 'usage')).toEqual({ type: 'usage', usage: expected[provider] });
  });
});

describe('finish reasons', () => {
  const { emulator, clients } = useEmulator();

  it.each(providerNames)('%s: length and content filter', async (provider) => {
    const call = () =>
      executeChatCompletion(clients()[provider], { modelParams: { model: models[provider] }, ...ask });
    emulator().script({ kind: 'text', text: 'cut sh', finishReason: 'length' });
    expect(await call()).toMatchObject({ finishReason: 'length', text: 'cut sh' });
    emulator().script({ kind: 'text', text: '', finishReason: 'content-filter' });
    // Anthropic has no content-filter stop: its safety stop is `refusal`.
    expect((await call()).finishReason).toBe(provider === 'anthropic' ? 'refusal' : 'content-filter');
  });
});

describe('refusals', () => {
  const { emulator, clients } = useEmulator();
  const refusal = 'I cannot help with that.';
  const options = { modelParams: {}, ...ask };

  // OpenAI refuses in its own field (never answer text); Anthropic writes the refusal as text and
  // says so with its stop reason and stop_details; Gemini stops for SAFETY with a finishMessage.
  const expected: Record<ProviderName, object> = {
    openai: { finishReason: 'refusal', text: '', refusal },
    anthropic: { finishReason: 'refusal', text: refusal, refusal },
    gemini: { finishReason: 'content-filter', text: '', refusal },
  };

  it.each(providerNames)('%s: the refusal apart from the text, streamed and not', async (provider) => {
    emulator().script({ kind: 'refusal', refusal, chunkSize: 5, times: 2 });
    const call = { ...options, modelParams: { model: models[provider] } };
    const result = await executeChatCompletion(clients()[provider], call);
    expect(result).toMatchObject(expected[provider]);
    const parts = await collect(executeChatCompletion(clients()[provider], { ...call, stream: true }));
    const finish = parts.find((part) => part.type === 'finish');
    expect(finish?.type === 'finish' && finish.result).toMatchObject(expected[provider]);
    const textOf = (type: 'text-delta' | 'refusal-delta') =>
      parts.flatMap((part) => (part.type === type ? [part.text] : []));
    // OpenAI's refusal arrives as refusal parts as it streams, in several pieces; nobody else sends any.
    expect(textOf('refusal-delta').join('')).toBe(provider === 'openai' ? refusal : '');
    if (provider === 'openai') expect(textOf('refusal-delta').length).toBeGreaterThan(1);
    expect(textOf('text-delta').join('')).toBe(provider === 'anthropic' ? refusal : '');
  });

  it('Anthropic before 2026-10-21 (no stop_details): the refusal is the text alone', async () => {
    const older = createClients(emulator(), { anthropicVersion: '2023-06-01' }).anthropic;
    emulator().script({ kind: 'refusal', refusal, times: 2 });
    const call = { ...options, modelParams: { model: models.anthropic } };
    const result = await executeChatCompletion(older, call);
    expect(result).toMatchObject({ finishReason: 'refusal', text: refusal });
    expect(result.refusal).toBeUndefined();
    const parts = await collect(executeChatCompletion(older, { ...call, stream: true }));
    const finish = parts.find((part) => part.type === 'finish');
    expect(finish?.type === 'finish' && finish.result.refusal).toBeUndefined();
  });

  it('Gemini: a finishMessage of a stop that is no safety stop is not a refusal', async () => {
    emulator().script({ kind: 'refusal', refusal, rawFinishReason: 'MALFORMED_FUNCTION_CALL' });
    const result = await executeChatCompletion(clients().gemini, {
      ...options,
      modelParams: { model: models.gemini },
    });
    expect(result.finishReason).toBe('other');
    expect(result.refusal).toBeUndefined();
  });
});

describe('Anthropic API versions', () => {
  const { emulator } = useEmulator();

  it('2026-10-21 never receives temperature (a 400 there); it becomes a warning', async () => {
    const client = createClients(emulator()).anthropic;
    emulator().script({ kind: 'text', text: 'ok' });
    const result = await executeChatCompletion(client, {
      modelParams: { model: models.anthropic, temperature: 0.5 },
      ...ask,
    });
    expect(emulator().lastRequest()?.headers['anthropic-version']).toBe('2026-10-21');
    expect(emulator().lastRequest()?.body).not.toHaveProperty('temperature');
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'unsupported-setting', setting: 'temperature' }),
    ]);
  });

  it('2023-06-01 receives temperature, clamped to Anthropic’s range with a warning', async () => {
    const client = createClients(emulator(), { anthropicVersion: '2023-06-01' }).anthropic;
    emulator().script({ kind: 'text', text: 'ok' });
    const result = await executeChatCompletion(client, {
      modelParams: { model: models.anthropic },
      temperature: 1.7,
      ...ask,
    });
    expect(emulator().lastRequest()?.headers['anthropic-version']).toBe('2023-06-01');
    expect(emulator().lastRequest()?.body).toMatchObject({ temperature: 1 });
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'clamped-setting', setting: 'temperature' }),
    ]);
  });
});
