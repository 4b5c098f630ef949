import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerModels, type CompatContext } from './compat-context';

const weather = z.object({ city: z.string(), temperature: z.number(), note: z.string().optional() });

/** LangChain's `ChatOpenAI` pointed at the API: invoke, stream, structured output. */
export function describeLangChainCases(context: () => CompatContext): void {
  const chatModel = (model: string) => {
    const { baseURL, key } = context();
    return new ChatOpenAI({ model, apiKey: key, configuration: { baseURL }, maxRetries: 0 });
  };

  describe.each(providerModels)('LangChain ChatOpenAI on $model ($provider)', ({ provider, model }) => {
    it('invokes, with usage metadata', async () => {
      context().test.emulator.script({
        kind: 'text',
        text: `LangChain via ${provider}`,
        usage: { inputTokens: 7, outputTokens: 3 },
      });
      const message = await chatModel(model).invoke([
        ['system', 'Be brief'],
        ['human', 'Hello'],
      ]);
      expect(message.content).toBe(`LangChain via ${provider}`);
      expect(message.usage_metadata).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    });

    it('streams: the chunks concatenate to the answer, usage included', async () => {
      context().test.emulator.script({
        kind: 'text',
        text: 'chunk by chunk by chunk',
        chunkSize: 4,
        usage: { inputTokens: 5, outputTokens: 6 },
      });
      let merged: AIMessageChunk | undefined;
      let count = 0;
      for await (const chunk of await chatModel(model).stream('Stream please')) {
        merged = merged === undefined ? chunk : merged.concat(chunk);
        count += 1;
      }
      expect(merged?.content).toBe('chunk by chunk by chunk');
      expect(count).toBeGreaterThan(2);
      expect(merged?.usage_metadata).toMatchObject({ input_tokens: 5, output_tokens: 6 });
    });

    it('withStructuredOutput (JSON schema, its default here) returns the parsed object', async () => {
      context().test.emulator.script({
        kind: 'json',
        value:
          provider === 'openai'
            ? { city: 'Paris', temperature: 18, note: null }
            : { city: 'Paris', temperature: 18 },
      });
      const structured = chatModel(model).withStructuredOutput(weather, { name: 'weather' });
      // The null OpenAI strict mode had to produce is gone, so zod's optional() accepts it.
      expect(await structured.invoke('Weather in Paris?')).toEqual({ city: 'Paris', temperature: 18 });
      expect(context().test.emulator.requests.map((request) => request.provider)).toEqual([provider]);
    });

    it('withStructuredOutput by function calling returns the tool arguments', async () => {
      context().test.emulator.script({
        kind: 'tool-calls',
        toolCalls: [{ name: 'weather', arguments: { city: 'Nice', temperature: 25, note: 'breezy' } }],
      });
      const structured = chatModel(model).withStructuredOutput(weather, {
        name: 'weather',
        method: 'functionCalling',
      });
      expect(await structured.invoke('Weather in Nice?')).toEqual({
        city: 'Nice',
        temperature: 25,
        note: 'breezy',
      });
    });
  });
}
