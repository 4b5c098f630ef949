import {
  FunctionCallingMode,
  SchemaType,
  type FunctionDeclarationsTool,
  type GenerateContentRequest,
  type GenerateContentResponse,
  type GenerationConfig,
  type ModelParams,
  type ResponseSchema,
} from '@google/generative-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { geminiModel, postJson, schemaErrors } from './helpers';
import { answerSchema, modelTools, quotedResult, weatherParameters } from './model-tools';

let emulator: ProviderEmulator;

beforeAll(async () => {
  emulator = await startProviderEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

/** The tools in Gemini's form; `parametersJsonSchema` carries full JSON Schema (the SDK passes it through). */
const tools = [
  {
    functionDeclarations: modelTools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: tool.parameters,
    })),
  },
] as unknown as FunctionDeclarationsTool[];

const ask = (text: string): GenerateContentRequest => ({ contents: [{ role: 'user', parts: [{ text }] }] });

/** Sends the request both ways: generateContent, and the response streamGenerateContent aggregates. */
async function bothWays(params: Partial<ModelParams>, request: GenerateContentRequest) {
  const model = geminiModel(emulator, params);
  const plain = (await model.generateContent(request)).response;
  const streamed = await (await model.generateContentStream(request)).response;
  return [plain, streamed];
}

const calls = (response: GenerateContentResponse) =>
  (response.candidates?.[0]?.content.parts ?? []).flatMap((part) =>
    part.functionCall ? [part.functionCall] : [],
  );
const textOf = (response: GenerateContentResponse) =>
  (response.candidates?.[0]?.content.parts ?? []).map((part) => part.text ?? '').join('');

describe('Gemini default model: functionCallingConfig', () => {
  it('ANY with one allowed name calls it with args that satisfy its schema, streamed and not', async () => {
    for (const response of await bothWays(
      {
        tools,
        toolConfig: {
          functionCallingConfig: { mode: FunctionCallingMode.ANY, allowedFunctionNames: ['get_weather'] },
        },
      },
      ask('Hello!'),
    )) {
      const made = calls(response);
      expect(made.map((call) => call.name)).toEqual(['get_weather']);
      expect(schemaErrors(weatherParameters, made[0]?.args)).toBe('');
    }
  });

  it('ANY calls the mentioned function among the allowed ones, else the first allowed', async () => {
    const anyMode = (allowedFunctionNames?: string[]) => ({
      tools,
      toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.ANY, allowedFunctionNames } },
    });
    for (const response of await bothWays(anyMode(), ask('get the time'))) {
      expect(calls(response).map((call) => call.name)).toEqual(['get_time']);
    }
    for (const response of await bothWays(anyMode(['get_time', 'get_weather']), ask('Hello!'))) {
      expect(calls(response).map((call) => call.name)).toEqual(['get_weather']);
    }
  });

  it('NONE answers text even when the message names a function', async () => {
    for (const response of await bothWays(
      { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.NONE } } },
      ask('get the weather'),
    )) {
      expect(calls(response)).toEqual([]);
      expect(textOf(response)).toBe(defaultReplyText);
    }
  });

  it('AUTO (and no config) calls the functions a message names, and answers text otherwise', async () => {
    const auto = { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.AUTO } } };
    for (const params of [auto, { tools }]) {
      for (const response of await bothWays(params, ask('get the weather'))) {
        expect(calls(response).map((call) => call.name)).toEqual(['get_weather']);
      }
      for (const response of await bothWays(params, ask('Hello!'))) {
        expect(textOf(response)).toBe(defaultReplyText);
      }
    }
  });

  it('answers in text that quotes the function response once it is in, streamed and not', async () => {
    const request: GenerateContentRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'get the weather' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'clear' } } }] },
      ],
    };
    for (const response of await bothWays({ tools }, request)) {
      expect(textOf(response)).toBe(quotedResult('get_weather', '{"sky":"clear"}'));
    }
  });

  it('lets a scripted reply win over the default behaviour', async () => {
    emulator.script({ kind: 'text', text: 'scripted' });
    const [response] = await bothWays(
      { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.ANY } } },
      ask('hi'),
    );
    expect(textOf(response!)).toBe('scripted');
  });

  it('rejects a calling config without declarations, or naming an undeclared function', async () => {
    const post = (body: object) =>
      postJson(
        `${emulator.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`,
        { ...ask('hi'), ...body },
        {
          'x-goog-api-key': 'k',
        },
      );
    const withoutTools = await post({ toolConfig: { functionCallingConfig: { mode: 'ANY' } } });
    expect(withoutTools.status).toBe(400);
    expect(await withoutTools.json()).toMatchObject({
      error: {
        status: 'INVALID_ARGUMENT',
        message: 'Function calling config is set without function_declarations.',
      },
    });
    const undeclared = await post({
      tools,
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['nope'] } },
    });
    expect(undeclared.status).toBe(400);
  });
});

describe('Gemini default model: JSON', () => {
  it('answers an instance of responseSchema and of responseJsonSchema, streamed and not', async () => {
    const responseSchema: ResponseSchema = {
      type: SchemaType.OBJECT,
      properties: {
        title: { type: SchemaType.STRING },
        tags: { type: SchemaType.ARRAY, items: { type: SchemaType.STRING } },
      },
      required: ['title', 'tags'],
    };
    for (const response of await bothWays(
      { generationConfig: { responseMimeType: 'application/json', responseSchema } },
      ask('Describe Paris'),
    )) {
      const value = JSON.parse(textOf(response)) as Record<string, unknown>;
      expect(Object.keys(value).sort()).toEqual(['tags', 'title']);
    }
    const generationConfig = {
      responseMimeType: 'application/json',
      responseJsonSchema: answerSchema,
    } as GenerationConfig;
    for (const response of await bothWays({ generationConfig }, ask('Rate Paris'))) {
      expect(schemaErrors(answerSchema, JSON.parse(textOf(response)))).toBe('');
    }
  });

  it('answers a JSON object for responseMimeType alone and for a JSON instruction', async () => {
    for (const [params, request] of [
      [{ generationConfig: { responseMimeType: 'application/json' } }, ask('Describe Paris')],
      [{ systemInstruction: 'Reply only with JSON.' }, ask('Describe Paris')],
    ] as const) {
      for (const response of await bothWays(params, request)) {
        expect(JSON.parse(textOf(response))).toBeTypeOf('object');
      }
    }
  });
});
