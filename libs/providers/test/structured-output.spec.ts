import { describe, expect, it } from 'vitest';
import { executeChatCompletion, SchemaLoweringError, type ChatMessage, type ProviderName } from '../src';
import { models, providerNames, useEmulator } from './support/emulator-clients';

const bodyOf = (request: { body: unknown } | undefined) => request?.body as Record<string, unknown>;

describe('OpenAI structured output', () => {
  const { emulator, clients } = useEmulator();

  it('adds the JSON instruction without mutating the caller’s array', async () => {
    const messages: readonly ChatMessage[] = Object.freeze([{ role: 'user', content: 'List three colors' }]);
    emulator().script({ kind: 'json', value: { colors: ['red'] } });
    const result = await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages,
      responseFormat: { type: 'json_object' },
    });
    expect(messages).toEqual([{ role: 'user', content: 'List three colors' }]);
    expect(bodyOf(emulator().lastRequest()).messages).toHaveLength(2);
    expect(result.warnings.map((warning) => warning.type)).toEqual(['json-prompt-added']);
  });

  it('leaves the messages alone when one already mentions JSON, in any case', async () => {
    emulator().script({ kind: 'json', value: {} });
    await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'answer in Json please' }] }],
      responseFormat: { type: 'json_object' },
    });
    expect(bodyOf(emulator().lastRequest()).messages).toHaveLength(1);
  });

  it('wraps the flat form into the envelope with the default name, or the given one', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    emulator().script({ kind: 'json' }, { kind: 'json' });
    await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema },
    });
    expect(bodyOf(emulator().lastRequest()).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
    await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema, name: 'verdict' },
    });
    expect(bodyOf(emulator().lastRequest()).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'verdict', schema },
    });
  });

  it('restores the nulls strict mode forced on optional properties, so the result fits the original schema', async () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, subtitle: { type: 'string' } },
      required: ['title'],
    };
    emulator().script({ kind: 'json', value: { title: 'Dune', subtitle: null } });
    const result = await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', json_schema: { name: 'book', schema, strict: true } },
    });
    expect(result.text).toBe('{"title":"Dune","subtitle":null}');
    expect(result.json).toEqual({ title: 'Dune' });
    expect(result.validation).toEqual({ valid: true, errors: [] });
    expect(result.schemaLowering?.changes).toContainEqual(
      expect.objectContaining({ pointer: '/properties/subtitle', action: 'made-required-nullable' }),
    );
  });
});

describe.each(providerNames)('%s: validation against the original schema', (provider: ProviderName) => {
  const { emulator, clients } = useEmulator();
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 5 }, age: { type: 'integer', minimum: 0 } },
    required: ['name', 'age'],
  };

  it('reports exactly what failed when the provider could not enforce a constraint', async () => {
    emulator().script({ kind: 'json', value: { name: 'Bartholomew', age: -3 } });
    const result = await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema },
    });
    expect(result.json).toEqual({ name: 'Bartholomew', age: -3 });
    expect(result.validation?.valid).toBe(false);
    expect(result.validation?.errors.map((error) => [error.path, error.keyword])).toEqual(
      expect.arrayContaining([
        ['/name', 'maxLength'],
        ['/age', 'minimum'],
      ]),
    );
  });

  it('reports unparseable output as a validation failure, never a throw', async () => {
    emulator().script({ kind: 'json', text: '{"name": "Al", "age":' });
    const result = await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema },
    });
    expect(result.json).toBeUndefined();
    expect(result.validation).toMatchObject({ valid: false, errors: [{ path: '', keyword: 'json' }] });
  });

  it('repairs once when asked: the errors go back to the model and its corrected answer is used', async () => {
    emulator().script(
      { kind: 'json', value: { name: 'Al', age: -1 } },
      { kind: 'json', value: { name: 'Al', age: 30 } },
    );
    const result = await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema },
      repairInvalidJson: true,
    });
    expect(result).toMatchObject({
      json: { name: 'Al', age: 30 },
      validation: { valid: true },
      repaired: true,
      attempts: 2,
    });
    const repairRequest = JSON.stringify(emulator().lastRequest()?.body);
    expect(repairRequest).toContain('/age');
    expect(repairRequest).toContain('{\\"name\\":\\"Al\\",\\"age\\":-1}');
  });

  it('text and undefined response formats change nothing', async () => {
    emulator().script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' });
    await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'text' },
    });
    const withText = emulator().lastRequest()?.body;
    const result = await executeChatCompletion(clients()[provider], {
      modelParams: { model: models[provider] },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(emulator().lastRequest()?.body).toEqual(withText);
    expect(result.validation).toBeUndefined();
  });
});

describe('schemas a provider cannot take', () => {
  const { emulator, clients } = useEmulator();
  const recursive = {
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    required: ['name'],
  };

  /** Four levels: deeper than the default unroll depth (3), still valid against the original schema. */
  const deepTree = {
    name: 'a',
    children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [] }] }] }],
  };
  const loweredSchemaOf = (provider: 'anthropic' | 'gemini') => {
    const body = bodyOf(emulator().lastRequest());
    return provider === 'gemini'
      ? (body.generationConfig as Record<string, unknown>).responseSchema
      : ((body.output_config as Record<string, unknown>).format as Record<string, unknown>).schema;
  };

  it.each(['anthropic', 'gemini'] as const)(
    '%s: a recursive schema is unrolled, accepted on the wire, and a deeper answer still validates',
    async (provider) => {
      emulator().script({ kind: 'json', value: deepTree });
      const result = await executeChatCompletion(clients()[provider], {
        modelParams: { model: models[provider] },
        messages: [{ role: 'user', content: 'x' }],
        responseFormat: { type: 'json_schema', schema: recursive },
      });
      expect(emulator().requests).toHaveLength(1);
      const sent = JSON.stringify(loweredSchemaOf(provider));
      expect(sent).not.toContain('$ref');
      expect(sent.match(/"children":\{/g)).toHaveLength(3);
      expect(result.validation).toMatchObject({ valid: true });
      expect(result.json).toEqual(deepTree);
      expect(
        result.schemaLowering?.changes.filter((change) => change.action === 'recursion-unrolled'),
      ).toHaveLength(2);
    },
  );

  it('gemini: schemaRecursionDepth sets the unroll depth of the response schema', async () => {
    emulator().script({ kind: 'json', value: { name: 'only', children: [] } });
    await executeChatCompletion(clients().gemini, {
      modelParams: { model: models.gemini },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema: recursive },
      schemaRecursionDepth: 1,
    });
    expect(loweredSchemaOf('gemini')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { type: 'string' }, maxItems: 0 },
      },
      required: ['name'],
      propertyOrdering: ['name', 'children'],
    });
  });

  it('gemini: a recursive tool parameter schema is unrolled and accepted on the wire', async () => {
    emulator().script({ kind: 'text', text: 'ok' });
    const result = await executeChatCompletion(clients().gemini, {
      modelParams: { model: models.gemini },
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 'save_tree', parameters: recursive }],
      schemaRecursionDepth: 2,
    });
    expect(result.text).toBe('ok');
    const tools = bodyOf(emulator().lastRequest()).tools as Array<Record<string, unknown>>;
    expect(JSON.stringify(tools)).not.toContain('$ref');
    expect(result.warnings.map((warning) => warning.message).join(' ')).toContain('recursion-unrolled');
  });

  it('gemini: a nullable enum is sent as a nullable string enum, which Gemini accepts', async () => {
    emulator().script({ kind: 'json', value: { status: null } });
    const result = await executeChatCompletion(clients().gemini, {
      modelParams: { model: models.gemini },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: { status: { type: ['string', 'null'], enum: ['open', 'done', null] } },
          required: ['status'],
        },
      },
    });
    expect(loweredSchemaOf('gemini')).toMatchObject({
      properties: { status: { type: 'string', nullable: true, enum: ['open', 'done'] } },
    });
    expect(result.validation).toMatchObject({ valid: true });
  });

  it.each(['anthropic', 'gemini'] as const)(
    '%s: recursion that no level can end is a clear error before any request',
    (provider) => {
      const endless = {
        type: 'object',
        properties: { child: { $ref: '#' } },
        required: ['child'],
      };
      expect(() =>
        executeChatCompletion(clients()[provider], {
          modelParams: { model: models[provider] },
          messages: [{ role: 'user', content: 'x' }],
          responseFormat: { type: 'json_schema', schema: endless },
        }),
      ).toThrow(SchemaLoweringError);
      expect(emulator().requests).toHaveLength(0);
    },
  );

  it('OpenAI strict keeps recursion through $defs', async () => {
    emulator().script({ kind: 'json', value: { name: 'root', children: [{ name: 'leaf', children: [] }] } });
    const result = await executeChatCompletion(clients().openai, {
      modelParams: { model: models.openai },
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', schema: recursive, strict: true },
    });
    expect(result.validation?.valid).toBe(true);
  });
});
