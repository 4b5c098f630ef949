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
      // Longer than the refusal hold: the JSON check must hold it anyway.
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

    it('answers a JSON array under json_object with the error, and a fenced object as the bare JSON', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'json', text: '[1, 2]' });
      expectInvalidModelOutput(await failureOf(openai().chat.completions.create(jsonObject())));
      test.emulator.script({ kind: 'json', text: '```json\n{"city": "Paris"}\n```', chunkSize: 5, times: 2 });
      const plain = await openai().chat.completions.create(jsonObject());
      const streamed = await openai().chat.completions.stream(jsonObject()).finalChatCompletion();
      for (const completion of [plain, streamed])
        expect(completion.choices[0]?.message.content).toBe('{"city":"Paris"}');
    });

    it('streams a refusal as refusal deltas and no content, as OpenAI does; the same message unstreamed', async () => {
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
      expect(contentDeltas.join('')).toBe('');
      if (provider === 'gemini') {
        // Gemini refuses with a SAFETY stop and no text: OpenAI's content_filter.
        expect(refusalDeltas).toEqual([]);
        for (const completion of [streamed, plain])
          expect(completion.choices[0]?.finish_reason).toBe('content_filter');
        return;
      }
      expect(refusalDeltas.join('')).toBe(refusal);
      expect(refusalDeltas.length).toBeGreaterThan(1);
      for (const completion of [streamed, plain]) {
        expect(completion.choices[0]?.finish_reason).toBe('stop');
        expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal });
      }
    });

    it('passes a refusal under json_object on as a refusal, not as an invalid output', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'refusal', refusal: 'No.' });
      const completion = await openai().chat.completions.create(jsonObject());
      if (provider === 'gemini') expect(completion.choices[0]?.finish_reason).toBe('content_filter');
      else expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
    });
  });
}
