import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { executeChatCompletion, type ChatMessage, type SupportedClient } from '../src';
import { createClients, models, useEmulator } from './support/emulator-clients';

const ask = { messages: [{ role: 'user' as const, content: 'x' }] };

describe('dispatch by client type', () => {
  const { emulator, clients } = useEmulator();

  it.each([
    ['a number', 42, 'number'],
    ['null', null, 'null'],
    ['a Date', new Date(), 'Date'],
    ['a plain object', { hello: 'world' }, 'Object'],
  ])('rejects %s with a TypeError naming its type', (_name, client, typeName) => {
    expect(() =>
      executeChatCompletion(client as unknown as SupportedClient, { modelParams: { model: 'm' }, ...ask }),
    ).toThrow(new RegExp(`unsupported client type ${typeName}`));
  });

  it('accepts a subclass of the OpenAI client', async () => {
    class TracingOpenAI extends OpenAI {}
    emulator().script({ kind: 'text', text: 'from subclass' });
    const client = new TracingOpenAI({ apiKey: 'k', baseURL: emulator().openaiBaseUrl });
    expect(
      (await executeChatCompletion(client, { modelParams: { model: models.openai }, ...ask })).text,
    ).toBe('from subclass');
  });

  it.each(['openai', 'anthropic', 'gemini'] as const)(
    'duck-types a wrapper shaped like the %s client',
    async (provider) => {
      const real = clients()[provider];
      const wrapper = {
        openai: {
          chat: {
            completions: {
              create: (...args: unknown[]) =>
                Reflect.apply(
                  clients().openai.chat.completions.create,
                  clients().openai.chat.completions,
                  args,
                ),
            },
          },
        },
        anthropic: {
          messages: {
            create: (...args: unknown[]) =>
              Reflect.apply(clients().anthropic.messages.create, clients().anthropic.messages, args),
          },
        },
        gemini: {
          generateContent: (...args: unknown[]) =>
            Reflect.apply(clients().gemini.generateContent, clients().gemini, args),
          generateContentStream: (...args: unknown[]) =>
            Reflect.apply(clients().gemini.generateContentStream, clients().gemini, args),
        },
      }[provider] as unknown as SupportedClient;
      expect(wrapper).not.toBe(real);
      emulator().script({ kind: 'text', text: `via ${provider} wrapper` });
      const result = await executeChatCompletion(wrapper, {
        modelParams: { model: models[provider] },
        ...ask,
      });
      expect(result).toMatchObject({ provider, text: `via ${provider} wrapper` });
    },
  );

  it('talks to an OpenAI-compatible server (vLLM, Ollama, Mistral…) through the openai client and a base URL', async () => {
    const compatible = new OpenAI({ apiKey: 'EMPTY', baseURL: `${emulator().url}/v1` });
    emulator().script({ kind: 'text', text: 'local model says hi' });
    const result = await executeChatCompletion(compatible, {
      modelParams: { model: 'mistral-small-latest' },
      ...ask,
    });
    expect(result).toMatchObject({ provider: 'openai', text: 'local model says hi' });
    expect(emulator().lastRequest()?.body).toMatchObject({ model: 'mistral-small-latest' });
  });
});

describe('switching provider mid-session', () => {
  const { emulator } = useEmulator();

  it('a tool loop recorded on Gemini continues on OpenAI and Anthropic (the emulators reject orphaned results)', async () => {
    const { gemini, openai, anthropic } = createClients(emulator());
    const history: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris and Rome?' }];
    const tools = [
      {
        name: 'weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];

    emulator().script({
      kind: 'tool-calls',
      toolCalls: [
        { name: 'weather', arguments: { city: 'Paris' } },
        { name: 'weather', arguments: { city: 'Rome' } },
      ],
    });
    const first = await executeChatCompletion(gemini, {
      modelParams: { model: models.gemini },
      messages: history,
      tools,
    });
    expect(first.toolCalls).toHaveLength(2);
    expect(new Set(first.toolCalls.map((call) => call.id)).size).toBe(2);
    history.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls });
    for (const call of first.toolCalls) {
      history.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: `sunny in ${JSON.parse(call.arguments).city}`,
      });
    }

    for (const [client, model] of [
      [openai, models.openai],
      [anthropic, models.anthropic],
      [gemini, models.gemini],
    ] as const) {
      emulator().script({ kind: 'text', text: 'Both sunny.' });
      const next = await executeChatCompletion(client, { modelParams: { model }, messages: history, tools });
      expect(next.text).toBe('Both sunny.');
    }
  });

  it('Gemini tool call ids are stable for the same answer and distinct across answers', async () => {
    const { gemini } = createClients(emulator());
    const reply = {
      kind: 'tool-calls' as const,
      toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }],
    };
    emulator().script(reply, reply);
    const call = () => executeChatCompletion(gemini, { modelParams: { model: models.gemini }, ...ask });
    const [first, second] = [await call(), await call()];
    expect(first.toolCalls[0]?.id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(first.toolCalls[0]?.id).not.toBe(second.toolCalls[0]?.id);
  });
});
