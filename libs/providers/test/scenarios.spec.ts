import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '@agentdesk/provider-emulator';
import {
  executeChatCompletion,
  type ChatCompletionOptions,
  type ChatCompletionResult,
  type ProviderName,
} from '../src';
import { collect, models, providerNames, useEmulator } from './support/emulator-clients';

/**
 * One table of scenarios, run across the three providers through the official SDK clients and the
 * emulator. Each row states the exact body each provider must receive and what the normalized
 * result must be.
 */
interface Scenario {
  name: string;
  reply: ScriptedReply;
  options: (provider: ProviderName) => ChatCompletionOptions;
  body: Record<ProviderName, unknown>;
  check: (result: ChatCompletionResult, provider: ProviderName) => void;
}

const user = (content: string) => ({ role: 'user' as const, content });
const geminiBase = { safetySettings: [], generationConfig: {} };
const weatherTool = {
  name: 'weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const personSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    role: { enum: ['admin', 'member'] },
    nickname: { type: 'string' },
    address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
      required: ['city', 'zip'],
    },
  },
  required: ['name', 'age', 'role', 'address'],
};

const scenarios: Scenario[] = [
  {
    name: 'plain text',
    reply: { kind: 'text', text: 'Hello there' },
    options: (provider) => ({ modelParams: { model: models[provider] }, messages: [user('Hi')] }),
    body: {
      openai: { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] },
      anthropic: { model: 'claude-test', max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] },
      gemini: { ...geminiBase, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    },
    check: (result) => {
      expect(result.text).toBe('Hello there');
      expect(result.finishReason).toBe('stop');
      expect(result.toolCalls).toEqual([]);
      expect(result.json).toBeUndefined();
    },
  },
  {
    name: 'system prompt, max tokens and model defaults',
    reply: { kind: 'text', text: 'ok' },
    options: (provider) => ({
      modelParams: { model: models[provider], maxTokens: 100 },
      maxTokens: 32,
      messages: [{ role: 'system', content: 'Be terse.' }, user('Hi')],
    }),
    body: {
      openai: {
        model: 'gpt-test',
        max_tokens: 32,
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Hi' },
        ],
      },
      anthropic: {
        model: 'claude-test',
        max_tokens: 32,
        system: 'Be terse.',
        messages: [{ role: 'user', content: 'Hi' }],
      },
      gemini: {
        ...geminiBase,
        generationConfig: { maxOutputTokens: 32 },
        systemInstruction: { role: 'system', parts: [{ text: 'Be terse.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      },
    },
    check: (result) => expect(result.text).toBe('ok'),
  },
  {
    name: 'json_object',
    reply: { kind: 'json', value: { answer: 42 } },
    options: (provider) => ({
      modelParams: { model: models[provider] },
      messages: [user('Give me the answer')],
      responseFormat: { type: 'json_object' },
    }),
    body: {
      openai: {
        model: 'gpt-test',
        messages: [
          { role: 'user', content: 'Give me the answer' },
          { role: 'system', content: 'Respond with a single valid JSON object.' },
        ],
        response_format: { type: 'json_object' },
      },
      anthropic: {
        model: 'claude-test',
        max_tokens: 4096,
        system: 'Respond with a single valid JSON object.',
        messages: [{ role: 'user', content: 'Give me the answer' }],
      },
      gemini: {
        ...geminiBase,
        generationConfig: { responseMimeType: 'application/json' },
        contents: [{ role: 'user', parts: [{ text: 'Give me the answer' }] }],
      },
    },
    check: (result) => {
      expect(result.json).toEqual({ answer: 42 });
      expect(result.validation).toEqual({ valid: true, errors: [] });
    },
  },
  {
    name: 'json_schema: nested, optional, enum, nullable union, numeric constraint (strict)',
    reply: { kind: 'json' },
    options: (provider) => ({
      modelParams: { model: models[provider] },
      messages: [user('Describe a person')],
      responseFormat: { type: 'json_schema', schema: personSchema, strict: true },
    }),
    body: {
      openai: {
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Describe a person' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'response',
            strict: true,
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                age: { type: 'integer', minimum: 0 },
                role: { type: 'string', enum: ['admin', 'member'] },
                nickname: { type: ['string', 'null'] },
                address: {
                  type: 'object',
                  properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
                  required: ['city', 'zip'],
                  additionalProperties: false,
                },
              },
              required: ['name', 'age', 'role', 'nickname', 'address'],
              additionalProperties: false,
            },
          },
        },
      },
      anthropic: {
        model: 'claude-test',
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Describe a person' }],
        output_config: {
          format: {
            type: 'json_schema',
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                age: { type: 'integer', description: 'Must be >= 0.' },
                role: { type: 'string', enum: ['admin', 'member'] },
                nickname: { type: 'string' },
                address: {
                  type: 'object',
                  properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
                  required: ['city', 'zip'],
                  additionalProperties: false,
                },
              },
              required: ['name', 'age', 'role', 'address'],
              additionalProperties: false,
            },
          },
        },
      },
      gemini: {
        ...geminiBase,
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              age: { type: 'integer', minimum: 0 },
              role: { type: 'string', enum: ['admin', 'member'] },
              nickname: { type: 'string' },
              address: {
                type: 'object',
                properties: { city: { type: 'string' }, zip: { type: 'string', nullable: true } },
                required: ['city', 'zip'],
                propertyOrdering: ['city', 'zip'],
              },
            },
            required: ['name', 'age', 'role', 'address'],
            propertyOrdering: ['name', 'age', 'role', 'nickname', 'address'],
          },
        },
        contents: [{ role: 'user', parts: [{ text: 'Describe a person' }] }],
      },
    },
    check: (result) => {
      expect(result.validation).toEqual({ valid: true, errors: [] });
      const person = result.json as Record<string, unknown>;
      expect(Object.keys(person)).toEqual(expect.arrayContaining(['name', 'age', 'role', 'address']));
      // OpenAI strict had to emit `nickname` (null or a string); a null never reaches the caller.
      expect(person['nickname']).not.toBeNull();
      expect(result.schemaLowering?.changes.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'json_schema with $ref and oneOf (non-strict envelope passes through for OpenAI)',
    reply: { kind: 'json' },
    options: (provider) => ({
      modelParams: { model: models[provider] },
      messages: [user('Shapes')],
      responseFormat: {
        type: 'json_schema',
        json_schema: {
          name: 'shapes',
          schema: {
            type: 'object',
            properties: { shape: { $ref: '#/$defs/shape' } },
            required: ['shape'],
            $defs: {
              shape: {
                oneOf: [
                  { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
                  { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
                ],
              },
            },
          },
        },
      },
    }),
    body: {
      openai: {
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Shapes' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'shapes',
            schema: {
              type: 'object',
              properties: { shape: { $ref: '#/$defs/shape' } },
              required: ['shape'],
              $defs: {
                shape: {
                  oneOf: [
                    { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
                    { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
                  ],
                },
              },
            },
          },
        },
      },
      anthropic: {
        model: 'claude-test',
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Shapes' }],
        output_config: {
          format: {
            type: 'json_schema',
            schema: {
              type: 'object',
              properties: {
                shape: {
                  anyOf: [
                    {
                      type: 'object',
                      properties: { radius: { type: 'number' } },
                      required: ['radius'],
                      additionalProperties: false,
                    },
                    {
                      type: 'object',
                      properties: { side: { type: 'number' } },
                      required: ['side'],
                      additionalProperties: false,
                    },
                  ],
                },
              },
              required: ['shape'],
              additionalProperties: false,
            },
          },
        },
      },
      gemini: {
        ...geminiBase,
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: {
            type: 'object',
            properties: {
              shape: {
                anyOf: [
                  {
                    type: 'object',
                    properties: { radius: { type: 'number' } },
                    required: ['radius'],
                    propertyOrdering: ['radius'],
                  },
                  {
                    type: 'object',
                    properties: { side: { type: 'number' } },
                    required: ['side'],
                    propertyOrdering: ['side'],
                  },
                ],
              },
            },
            required: ['shape'],
            propertyOrdering: ['shape'],
          },
        },
        contents: [{ role: 'user', parts: [{ text: 'Shapes' }] }],
      },
    },
    check: (result, provider) => {
      expect(result.validation?.valid).toBe(true);
      if (provider === 'openai') expect(result.schemaLowering).toBeUndefined();
      else expect(result.schemaLowering?.changes.map((change) => change.action)).toContain('ref-inlined');
    },
  },
  {
    name: 'tools with a forced choice',
    reply: { kind: 'tool-calls', toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] },
    options: (provider) => ({
      modelParams: { model: models[provider] },
      messages: [user('Weather in Paris?')],
      tools: [weatherTool],
      toolChoice: { name: 'weather' },
    }),
    body: {
      openai: {
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ type: 'function', function: weatherTool }],
        tool_choice: { type: 'function', function: { name: 'weather' } },
      },
      anthropic: {
        model: 'claude-test',
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ name: 'weather', description: 'Current weather', input_schema: weatherTool.parameters }],
        tool_choice: { type: 'tool', name: 'weather' },
      },
      gemini: {
        ...geminiBase,
        tools: [
          {
            functionDeclarations: [
              {
                name: 'weather',
                description: 'Current weather',
                parameters: { ...weatherTool.parameters, propertyOrdering: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
        contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
      },
    },
    check: (result) => {
      expect(result.finishReason).toBe('tool-calls');
      expect(result.toolCalls).toEqual([
        { id: expect.stringMatching(/^[\w-]+$/), name: 'weather', arguments: '{"city":"Paris"}' },
      ]);
    },
  },
];

describe.each(providerNames)('%s', (provider) => {
  const { emulator, clients } = useEmulator();

  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
    emulator().script(scenario.reply);
    const result = await executeChatCompletion(clients()[provider], {
      ...scenario.options(provider),
      stream: false,
    });
    const request = emulator().lastRequest(provider);
    expect(request?.body).toEqual(scenario.body[provider]);
    expect(result.request).toMatchObject(scenario.body[provider] as object);
    expect(result.provider).toBe(provider);
    expect(result.attempts).toBe(1);
    scenario.check(result, provider);
  });

  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    '%s, streamed',
    async (_name, scenario) => {
      emulator().script(scenario.reply);
      const parts = await collect(
        executeChatCompletion(clients()[provider], { ...scenario.options(provider), stream: true }),
      );
      expect(parts[0]?.type).toBe('warnings');
      const finish = parts.at(-1);
      if (finish?.type !== 'finish') throw new Error('stream did not end with a finish part');
      const streamedText = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
      expect(streamedText).toBe(finish.result.text);
      expect(parts.filter((part) => part.type === 'usage')).toHaveLength(1);
      scenario.check(finish.result, provider);
    },
  );
});
