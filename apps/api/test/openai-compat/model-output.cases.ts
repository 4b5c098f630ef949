import { InternalServerError, type APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { providerModels, type CompatContext } from './compat-context';

const describeParis = [{ role: 'user' as const, content: 'Describe Paris in JSON' }];

/** Rejects unless the promise fails; returns the failure. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => error,
  );
}

function expectInvalidModelOutput(error: unknown): void {
  expect(error).toBeInstanceOf(InternalServerError);
  const failure = error as APIError;
  expect(failure.status).toBe(502);
  expect(failure.code).toBe('invalid_model_output');
  expect(failure.type).toBe('server_error');
  expect(failure.message).toMatch(/did not answer with the JSON/);
}

/**
 * What the route promises about the model's output, on every provider: a JSON response format
 * yields JSON or a clear error (never prose labelled as JSON), and refusals arrive in `refusal`.
 */
export function describeModelOutputCases(context: () => CompatContext): void {
  describe.each(providerModels)('model output on $model ($provider)', ({ provider, model }) => {
    const jsonObject = () => ({
      model,
      messages: describeParis,
      response_format: { type: 'json_object' as const },
    });

    it('answers json_object with a JSON object by default (the emulator as a model), streamed and not', async () => {
      const { openai } = context();
      const plain = await openai().chat.completions.create(jsonObject());
      const streamed = await openai().chat.completions.stream(jsonObject()).finalChatCompletion();
      for (const completion of [plain, streamed]) {
        const value: unknown = JSON.parse(completion.choices[0]?.message.content ?? '');
        expect(value).toBeTypeOf('object');
        expect(Array.isArray(value)).toBe(false);
      }
    });

    it('answers prose under json_object with 502 invalid_model_output, streamed and not, never the prose', async () => {
      const { openai, test } = context();
      const prose = `Sure! Paris is the capital of France. ${'It is lovely. '.repeat(20)}`;
      test.emulator.script({ kind: 'text', text: prose, chunkSize: 16, times: 2 });
      expectInvalidModelOutput(await failureOf(openai().chat.completions.create(jsonObject())));
      expectInvalidModelOutput(
        await failureOf(openai().chat.completions.create({ ...jsonObject(), stream: true })),
      );
    });

    it('answers prose under json_schema with the same error', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'text', text: 'I think the answer is yes.' });
      const error = await failureOf(
        openai().chat.completions.create({
          model,
          messages: describeParis,
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: 'answer',
              schema: { type: 'object', properties: { yes: { type: 'boolean' } } },
            },
          },
        }),
      );
      expectInvalidModelOutput(error);
    });

    it('answers a JSON array under json_object with the error, and a fenced object without its fences', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'json', text: '[1, 2]' });
      expectInvalidModelOutput(await failureOf(openai().chat.completions.create(jsonObject())));
      test.emulator.script({ kind: 'json', text: '```json\n{"city": "Paris"}\n```', chunkSize: 5, times: 2 });
      const plain = await openai().chat.completions.create(jsonObject());
      const streamed = await openai().chat.completions.stream(jsonObject()).finalChatCompletion();
      // Unstreamed, the parsed JSON re-serialized; streamed, the model's own text without the fences.
      expect(plain.choices[0]?.message.content).toBe('{"city":"Paris"}');
      expect(streamed.choices[0]?.message.content).toBe('{"city": "Paris"}');
    });

    it('sends a refusal in `refusal` with content null, streamed and not, as the provider allows', async () => {
      const { openai, test } = context();
      const refusal = 'I cannot help with that request.';
      test.emulator.script({ kind: 'refusal', refusal, chunkSize: 6, times: 2 });
      const request = { model, messages: [{ role: 'user' as const, content: 'Something bad' }] };
      const stream = openai().chat.completions.stream(request);
      const refusalDeltas: string[] = [];
      const contentDeltas: string[] = [];
      stream.on('refusal.delta', ({ delta }) => refusalDeltas.push(delta));
      stream.on('content.delta', ({ delta }) => contentDeltas.push(delta));
      const streamed = await stream.finalChatCompletion();
      const plain = await openai().chat.completions.create(request);
      expect(plain.choices[0]?.message).toMatchObject({ content: null, refusal });
      expect(streamed.choices[0]?.message.refusal).toBe(refusal);
      if (provider === 'openai') {
        // OpenAI's own refusal: forwarded delta by delta as it streams, no content, finish stop.
        expect(refusalDeltas.length).toBeGreaterThan(1);
        expect(refusalDeltas.join('')).toBe(refusal);
        expect(contentDeltas).toEqual([]);
        expect(streamed.choices[0]?.message.content).toBeNull();
        for (const completion of [streamed, plain]) expect(completion.choices[0]?.finish_reason).toBe('stop');
        return;
      }
      // Anthropic streams its refusal as text and says so only at the end: the text went out as
      // content, then comes once more as the refusal. Gemini stops for SAFETY with no text and a
      // finishMessage. Both finish content_filter.
      expect(contentDeltas.join('')).toBe(provider === 'anthropic' ? refusal : '');
      expect(refusalDeltas).toEqual([refusal]);
      for (const completion of [streamed, plain])
        expect(completion.choices[0]?.finish_reason).toBe('content_filter');
    });

    it('passes a refusal under json_object on as a refusal, not as an invalid output, streamed and not', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'refusal', refusal: 'No.', times: 2 });
      const plain = await openai().chat.completions.create(jsonObject());
      const streamed = await openai().chat.completions.stream(jsonObject()).finalChatCompletion();
      expect(plain.choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
      // Under json_object Anthropic's text is held while it may be a refusal, so no content went out.
      expect(streamed.choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
    });

    it('sends the first content delta while the model’s stream is still open (text, JSON, fenced JSON)', async () => {
      const { openai, test } = context();
      // Events before the first text: OpenAI's role chunk; Anthropic's message_start,
      // content_block_start and ping; none on Gemini. The model then stalls and never finishes.
      const afterFirstText = { openai: 2, anthropic: 4, gemini: 1 }[provider];
      const cases = [
        { text: 'Hello there, how are you?', first: 'Hello th', format: undefined },
        { text: '{"city": "Paris"}', first: '{"city":', format: { type: 'json_object' as const } },
        // The fence line is dropped: the first content is the object's start.
        {
          text: '```json\n{"city": "Paris"}\n```',
          first: '{"city":',
          format: { type: 'json_object' as const },
        },
      ];
      for (const { text, first, format } of cases) {
        const fenceFrames = text.startsWith('```') ? 1 : 0;
        test.emulator.script({
          kind: 'text',
          text,
          chunkSize: 8,
          streamFault: { kind: 'stall', afterChunks: afterFirstText + fenceFrames },
        });
        const stream = await openai().chat.completions.create({
          model,
          messages: describeParis,
          stream: true,
          ...(format && { response_format: format }),
        });
        let content = '';
        for await (const chunk of stream) {
          content += chunk.choices[0]?.delta.content ?? '';
          if (content.length >= first.length) break;
        }
        expect(content, text).toBe(first);
      }
    });

    it('ends a streamed JSON answer that goes wrong after its start with the in-stream error event', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'json', text: '{"city": "Paris", and more', chunkSize: 6 });
      const stream = await openai().chat.completions.create({ ...jsonObject(), stream: true });
      let content = '';
      const error = await (async () => {
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
      })().catch((caught: unknown) => caught);
      expect(content.startsWith('{"city"')).toBe(true);
      expect((error as APIError).message).toMatch(/did not answer with the JSON object/);
      expect((error as APIError).error).toMatchObject({ code: 'invalid_model_output' });
    });
  });

  // Their refusals never come as text, so prose under a JSON format can only end as invalid output:
  // it is refused on its first characters. (Anthropic's prose is held, as it may end as a refusal.)
  describe.each(providerModels.filter(({ provider }) => provider !== 'anthropic'))(
    'prose under json_object on $model ($provider)',
    ({ provider, model }) => {
      it('is answered 502 as soon as it starts, while the model’s stream is still open', async () => {
        const { openai, test } = context();
        test.emulator.script({
          kind: 'text',
          text: 'Sure! Paris is the capital of France.',
          chunkSize: 8,
          // The model stalls after its first words and never finishes.
          streamFault: { kind: 'stall', afterChunks: provider === 'openai' ? 2 : 1 },
        });
        const request = { model, messages: describeParis, response_format: { type: 'json_object' as const } };
        expectInvalidModelOutput(
          await failureOf(openai().chat.completions.create({ ...request, stream: true })),
        );
      });
    },
  );

  describe.each(providerModels)(
    'prose before a tool call under json_object on $model ($provider)',
    ({ model }) => {
      it('is no invalid output: the answer is the tool call, streamed and not', async () => {
        const { openai, test } = context();
        test.emulator.script({
          kind: 'tool-calls',
          text: 'Let me look that up.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
          times: 2,
        });
        const request = {
          model,
          messages: describeParis,
          response_format: { type: 'json_object' as const },
          tools: [
            {
              type: 'function' as const,
              function: {
                name: 'get_weather',
                parameters: { type: 'object', properties: { city: { type: 'string' } } },
              },
            },
          ],
        };
        const plain = await openai().chat.completions.create(request);
        const streamed = await openai().chat.completions.stream(request).finalChatCompletion();
        for (const completion of [plain, streamed]) {
          expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
          expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
            function: { name: 'get_weather' },
          });
        }
      });
    },
  );
}
