import { BadRequestError } from 'openai';
import type { ChatCompletion, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { providerModels, type CompatContext } from './compat-context';

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The current weather of a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 3 } },
        required: ['city', 'days'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
    },
  },
];

const calls = (completion: ChatCompletion) =>
  (completion.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [
          {
            name: call.function.name,
            arguments: JSON.parse(call.function.arguments) as Record<string, unknown>,
          },
        ]
      : [],
  );

/** `tool_choice` through the route to each provider, answered by the emulator's default model (no script). */
export function describeToolChoiceCases(context: () => CompatContext): void {
  describe.each(providerModels)('tool_choice on $model ($provider)', ({ model }) => {
    const request = (content: string, toolChoice?: 'auto' | 'none' | 'required' | string) => ({
      model,
      messages: [{ role: 'user' as const, content }],
      tools,
      ...(toolChoice === undefined
        ? {}
        : {
            tool_choice: ['auto', 'none', 'required'].includes(toolChoice)
              ? (toolChoice as 'auto' | 'none' | 'required')
              : { type: 'function' as const, function: { name: toolChoice } },
          }),
    });
    const bothWays = async (body: ReturnType<typeof request>) => [
      await context().openai().chat.completions.create(body),
      await context().openai().chat.completions.stream(body).finalChatCompletion(),
    ];

    it('a forced function gets a call whose arguments fit its schema, streamed and not', async () => {
      for (const completion of await bothWays(request('Hello!', 'get_weather'))) {
        expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
        const [call] = calls(completion);
        expect(call?.name).toBe('get_weather');
        expect(call?.arguments).toEqual({ city: expect.any(String), days: expect.any(Number) });
        expect(call?.arguments.days).toBeGreaterThanOrEqual(1);
        expect(call?.arguments.days).toBeLessThanOrEqual(3);
      }
    });

    it('required gets some call, none gets text, auto calls only what the user names', async () => {
      for (const completion of await bothWays(request('Hello!', 'required')))
        expect(calls(completion).map((call) => call.name)).toEqual(['get_weather']);
      for (const completion of await bothWays(request('get the weather', 'none'))) {
        expect(calls(completion)).toEqual([]);
        expect(completion.choices[0]?.message.content).toBeTruthy();
      }
      for (const completion of await bothWays(request('get the time in Oslo')))
        expect(calls(completion).map((call) => call.name)).toEqual(['get_time']);
      for (const completion of await bothWays(request('Hello!', 'auto'))) {
        expect(calls(completion)).toEqual([]);
        expect(completion.choices[0]?.finish_reason).toBe('stop');
      }
    });

    it('a forced function that is not offered is the caller’s 400, from every provider', async () => {
      const error = await context()
        .openai()
        .chat.completions.create(request('Hello!', 'get_nothing'))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BadRequestError);
    });
  });
}
