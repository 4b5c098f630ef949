import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, generateText, Output, streamObject, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerModels, type CompatContext } from './compat-context';

const recipe = z.object({ name: z.string(), steps: z.array(z.string()), minutes: z.number() });
const recipeValue = { name: 'Pancakes', steps: ['mix', 'fry', 'flip'], minutes: 20 };

/** The Vercel AI SDK's OpenAI-compatible provider pointed at the API: text, streams, objects. */
export function describeAiSdkCases(context: () => CompatContext): void {
  const providerFor = (supportsStructuredOutputs = true) => {
    const { baseURL, key } = context();
    return createOpenAICompatible({
      name: 'agentdesk',
      baseURL,
      apiKey: key,
      includeUsage: true,
      supportsStructuredOutputs,
    });
  };

  describe.each(providerModels)(
    'AI SDK OpenAI-compatible provider on $model ($provider)',
    ({ provider, model }) => {
      it('generateText returns the text and usage', async () => {
        context().test.emulator.script({
          kind: 'text',
          text: `AI SDK via ${provider}`,
          usage: { inputTokens: 8, outputTokens: 4 },
        });
        const result = await generateText({ model: providerFor()(model), prompt: 'Hello', maxRetries: 0 });
        expect(result.text).toBe(`AI SDK via ${provider}`);
        expect(result.finishReason).toBe('stop');
        expect(result.usage).toMatchObject({ inputTokens: 8, outputTokens: 4, totalTokens: 12 });
      });

      it('streamText streams the text, then the usage', async () => {
        context().test.emulator.script({
          kind: 'text',
          text: 'one two three four five',
          chunkSize: 3,
          usage: { inputTokens: 6, outputTokens: 5 },
        });
        const result = streamText({ model: providerFor()(model), prompt: 'Count', maxRetries: 0 });
        const deltas: string[] = [];
        for await (const delta of result.textStream) deltas.push(delta);
        expect(deltas.join('')).toBe('one two three four five');
        expect(deltas.length).toBeGreaterThan(2);
        expect(await result.usage).toMatchObject({ inputTokens: 6, outputTokens: 5 });
      });

      it('generateObject returns an object valid against the zod schema', async () => {
        context().test.emulator.script({ kind: 'json', value: recipeValue });
        const result = await generateObject({
          model: providerFor()(model),
          schema: recipe,
          prompt: 'A recipe',
          maxRetries: 0,
        });
        expect(result.object).toEqual(recipeValue);
      });

      it('generateObject in JSON mode (a provider without structured outputs) still gets JSON', async () => {
        context().test.emulator.script({ kind: 'json', value: recipeValue });
        const global = globalThis as { AI_SDK_LOG_WARNINGS?: boolean };
        global.AI_SDK_LOG_WARNINGS = false;
        try {
          const result = await generateObject({
            model: providerFor(false)(model),
            schema: recipe,
            prompt: 'A recipe',
            maxRetries: 0,
          });
          expect(result.object).toEqual(recipeValue);
          // The SDK fell back to response_format json_object (its schema only in the prompt).
          expect(result.warnings?.map((warning) => warning.type)).toContain('unsupported');
        } finally {
          delete global.AI_SDK_LOG_WARNINGS;
        }
      });

      it('streamObject streams partial objects and ends with the whole one', async () => {
        context().test.emulator.script({ kind: 'json', value: recipeValue, chunkSize: 5 });
        const result = streamObject({
          model: providerFor()(model),
          schema: recipe,
          prompt: 'A recipe',
          maxRetries: 0,
        });
        const partials: unknown[] = [];
        for await (const partial of result.partialObjectStream) partials.push(partial);
        expect(partials.length).toBeGreaterThan(1);
        expect(await result.object).toEqual(recipeValue);
      });

      it('generateText with Output.object parses structured output', async () => {
        context().test.emulator.script({ kind: 'json', value: { verdict: 'ok', score: 0.9 } });
        const result = await generateText({
          model: providerFor()(model),
          output: Output.object({ schema: z.object({ verdict: z.enum(['ok', 'bad']), score: z.number() }) }),
          prompt: 'Judge',
          maxRetries: 0,
        });
        expect(result.output).toEqual({ verdict: 'ok', score: 0.9 });
      });
    },
  );
}
