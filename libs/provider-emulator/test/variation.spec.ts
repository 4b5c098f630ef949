import { afterEach, describe, expect, it } from 'vitest';
import {
  startProviderEmulator,
  variationHeader,
  variationKinds,
  type ProviderEmulator,
  type ProviderEmulatorOptions,
} from '../src/index';
import { anthropicClient, geminiModel, openAiClient, postJson, schemaErrors } from './helpers';

const ticketSchema = {
  type: 'object',
  properties: {
    summary: { type: 'string' },
    priority: { type: 'string', enum: ['low', 'normal', 'urgent'] },
    minutes: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['summary', 'priority', 'minutes', 'tags'],
  additionalProperties: false,
} as const;

const emulators: ProviderEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

async function start(options: ProviderEmulatorOptions = {}): Promise<ProviderEmulator> {
  const emulator = await startProviderEmulator(options);
  emulators.push(emulator);
  return emulator;
}

/** One structured-output request per prompt; the raw text and the variation header of each answer. */
async function askOpenAi(
  emulator: ProviderEmulator,
  model: string,
  prompts: readonly string[],
): Promise<{ text: string; varied: string | null }[]> {
  const client = openAiClient(emulator);
  return Promise.all(
    prompts.map(async (prompt) => {
      const { data, response } = await client.chat.completions
        .create({
          model,
          messages: [{ role: 'user', content: prompt }],
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'ticket', strict: true, schema: ticketSchema },
          },
        })
        .withResponse();
      return { text: data.choices[0]?.message.content ?? '', varied: response.headers.get(variationHeader) };
    }),
  );
}

function isValidTicket(text: string): boolean {
  try {
    return schemaErrors(ticketSchema, JSON.parse(text)) === '';
  } catch {
    return false;
  }
}

const prompts = Array.from({ length: 24 }, (_, index) => `Triage ticket #${index}: the printer is on fire`);

describe('seeded variation of structured-output answers', () => {
  it('is off by default, and at rate 0 every answer is valid', async () => {
    for (const emulator of [await start(), await start({ variation: { seed: 1, rates: { default: 0 } } })]) {
      const answers = await askOpenAi(emulator, 'gpt-test', prompts);
      expect(answers.every((answer) => isValidTicket(answer.text) && answer.varied === null)).toBe(true);
    }
  });

  it('at rate 1 every answer is invalid, naming its kind; other models keep their own rate', async () => {
    const emulator = await start({ variation: { seed: 'qa', rates: { default: 0, 'gpt-flaky': 1 } } });
    const flaky = await askOpenAi(emulator, 'gpt-flaky', prompts);
    for (const answer of flaky) {
      expect(isValidTicket(answer.text), answer.text).toBe(false);
      expect(variationKinds).toContain(answer.varied);
    }
    // 24 answers over four kinds: every kind shows up (the dice are fixed, so this is no flake).
    expect(new Set(flaky.map((answer) => answer.varied)).size).toBe(variationKinds.length);
    const steady = await askOpenAi(emulator, 'gpt-steady', prompts);
    expect(steady.every((answer) => isValidTicket(answer.text))).toBe(true);
  });

  it('gives the same answers for the same seed and request, other answers for another seed', async () => {
    const variation = { seed: 42, rates: { default: 0.5 } };
    const first = await askOpenAi(await start({ variation }), 'gpt-test', prompts);
    const again = await askOpenAi(await start({ variation }), 'gpt-test', prompts);
    expect(again).toEqual(first);
    const reseeded = await askOpenAi(
      await start({ variation: { ...variation, seed: 43 } }),
      'gpt-test',
      prompts,
    );
    expect(reseeded).not.toEqual(first);
    const varied = first.filter((answer) => answer.varied !== null).length;
    expect(varied).toBeGreaterThan(0);
    expect(varied).toBeLessThan(prompts.length);
  });

  it('varies Anthropic and Gemini answers too, and never scripted ones', async () => {
    const emulator = await start({
      variation: { seed: 5, rates: { default: 1 }, kinds: ['missing-required'] },
    });
    const claude = await anthropicClient(emulator).messages.create({
      model: 'claude-test',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Triage: the printer is on fire' }],
      output_config: { format: { type: 'json_schema', schema: ticketSchema } },
    });
    const claudeText = claude.content[0]?.type === 'text' ? claude.content[0].text : '';
    expect(schemaErrors(ticketSchema, JSON.parse(claudeText))).toMatch(/must have required property/);
    const gemini = await geminiModel(emulator, {
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: ticketSchema } as never,
    }).generateContent('Triage: the printer is on fire');
    expect(schemaErrors(ticketSchema, JSON.parse(gemini.response.text()))).toMatch(
      /must have required property/,
    );

    emulator.script({ kind: 'json' });
    const [scripted] = await askOpenAi(emulator, 'gpt-test', ['scripted']);
    expect(isValidTicket(scripted!.text)).toBe(true);
  });
});

describe('variation through the control API', () => {
  it('reads, changes and turns off the settings at runtime', async () => {
    const emulator = await start();
    const control = `${emulator.url}/_emulator/variation`;
    expect(await (await fetch(control)).json()).toEqual({ variation: null });

    const refused = await fetch(control, {
      method: 'PUT',
      body: JSON.stringify({ seed: 1, rates: { default: 2 } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^invalid variation settings: rates\.default/),
    });
    expect((await fetch(control, { method: 'PUT', body: '{' })).status).toBe(400);

    const settings = { seed: 'ci', rates: { default: 1 } };
    const accepted = await fetch(control, { method: 'PUT', body: JSON.stringify(settings) });
    expect(await accepted.json()).toEqual({ variation: settings });
    expect(emulator.variation).toEqual(settings);
    expect(await (await fetch(control)).json()).toEqual({ variation: settings });
    expect(
      (await askOpenAi(emulator, 'gpt-test', prompts.slice(0, 4))).some((answer) =>
        isValidTicket(answer.text),
      ),
    ).toBe(false);

    // A reset clears scripts and records, not the settings.
    await postJson(`${emulator.url}/_emulator/reset`, {});
    expect(emulator.variation).toEqual(settings);

    expect(await (await fetch(control, { method: 'DELETE' })).json()).toEqual({ variation: null });
    expect(
      (await askOpenAi(emulator, 'gpt-test', prompts.slice(0, 4))).every((answer) =>
        isValidTicket(answer.text),
      ),
    ).toBe(true);
  });

  it('changes in process too, refusing malformed settings', async () => {
    const emulator = await start();
    expect(() => emulator.setVariation({ seed: 1, rates: { default: -1 } })).toThrow(TypeError);
    emulator.setVariation({ seed: 1, rates: { 'gpt-test': 1 } });
    expect((await askOpenAi(emulator, 'gpt-test', ['one']))[0]?.varied).not.toBeNull();
    emulator.setVariation(undefined);
    expect((await askOpenAi(emulator, 'gpt-test', ['one']))[0]?.varied).toBeNull();
  });
});
