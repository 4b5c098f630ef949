import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '@agentdesk/api-contract';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '@agentdesk/providers';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey } from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * Every route that takes a JSON Schema refuses one nested or sized past the shared limits with a
 * 400 that states the limit — before lowering, before any provider call, never a stack overflow
 * (500) or an overflow retried as a "network error" (502). Deep plain JSON is a 400 or handled.
 */

const depthLimit = `may be nested at most ${MAX_SCHEMA_DEPTH} levels`;

/** Raw JSON text of a schema `depth` containers deep, nested through `keyword` (built as text: no recursion). */
function nestedSchemaText(depth: number, keyword: 'items' | 'properties' | 'anyOf'): string {
  const open = {
    items: '{"type":"array","items":',
    properties: '{"type":"object","properties":{"a":',
    anyOf: '{"anyOf":[',
  }[keyword];
  const close = { items: '}', properties: '}}', anyOf: ']}' }[keyword];
  const levelsPerWrapper = keyword === 'items' ? 1 : 2;
  const wrappers = Math.ceil((depth - 1) / levelsPerWrapper);
  return `${open.repeat(wrappers)}{"type":"string"}${close.repeat(wrappers)}`;
}

/** A schema exactly `depth` levels deep (a chain of `items`), as an object. */
function schemaOfDepth(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 1; level < depth; level += 1) schema = { type: 'array', items: schema };
  return schema;
}

const models = ['gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.0-flash'] as const;

export function describeSchemaLimits(engine: Engine): void {
  describe(`JSON Schema depth and size limits on every route that takes one (${engine})`, () => {
    let test: TestApi;
    let key: string;
    let adminKey: string;
    let sessionId: string;
    let baseURL: string;

    beforeAll(async () => {
      test = await startTestApi(engine);
      baseURL = `${await test.api.listen()}/v1`;
      const alice = await createLocalUser(test.api.repositories, 'alice');
      key = (await issueUserKey(test.api.repositories, alice)).key;
      adminKey = (
        await issueUserKey(
          test.api.repositories,
          await createLocalUser(test.api.repositories, 'root'),
          'admin',
        )
      ).key;
      sessionId = (await createSession(test.api.repositories, alice)).id;
    });
    afterAll(async () => {
      await test?.close();
    });
    beforeEach(() => test.emulator.reset());

    const post = (url: string, payload: string, bearer = key): Promise<InjectResponse> =>
      test.api.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload,
      });

    const completion = (model: string, extra: string) =>
      `{"model":"${model}","messages":[{"role":"user","content":"hi"}],${extra}}`;

    describe.each(models)('/v1/chat/completions with %s', (model) => {
      it.each([
        [
          'response_format nested 65 levels',
          MAX_SCHEMA_DEPTH + 1,
          'items',
          'response_format.json_schema.schema',
        ],
        [
          'response_format nested 65 levels through properties',
          MAX_SCHEMA_DEPTH + 1,
          'properties',
          'response_format.json_schema.schema',
        ],
        ['tools parameters nested 65 levels', MAX_SCHEMA_DEPTH + 1, 'items', 'tools[0].function.parameters'],
        [
          'tools parameters nested 65 levels through anyOf',
          MAX_SCHEMA_DEPTH + 1,
          'anyOf',
          'tools[0].function.parameters',
        ],
      ] as const)(
        'refuses %s with a 400 naming the limit and the param',
        async (_name, depth, keyword, param) => {
          const schema = nestedSchemaText(depth, keyword);
          const extra = param.startsWith('tools')
            ? `"tools":[{"type":"function","function":{"name":"deep","parameters":${schema}}}]`
            : `"response_format":{"type":"json_schema","json_schema":{"name":"deep","strict":true,"schema":${schema}}}`;
          const response = await post('/v1/chat/completions', completion(model, extra));
          expect(response.statusCode, response.body).toBe(400);
          const error = response.json<{ error: { message: string; param: string; type: string } }>().error;
          expect(error).toMatchObject({ param, type: 'invalid_request_error' });
          expect(error.message).toContain(depthLimit);
          expect(test.emulator.requests).toHaveLength(0);
        },
      );

      it.each([
        ['response_format', 1_000, 'response_format'],
        ['tools parameters', 5_000, 'tools'],
      ] as const)(
        'refuses a %s nested %i levels — past every body’s nesting bound — with a 400 naming where',
        async (_name, depth, field) => {
          const schema = nestedSchemaText(depth, 'items');
          const extra =
            field === 'tools'
              ? `"tools":[{"type":"function","function":{"name":"deep","parameters":${schema}}}]`
              : `"response_format":{"type":"json_schema","json_schema":{"name":"deep","strict":true,"schema":${schema}}}`;
          const response = await post('/v1/chat/completions', completion(model, extra));
          expect(response.statusCode, response.body).toBe(400);
          const error = response.json<{ error: { message: string; type: string } }>().error;
          expect(error.type).toBe('invalid_request_error');
          expect(error.message).toMatch(
            new RegExp(
              `^body\\.${field}\\..*…: arrays and objects are nested more than ${MAX_NESTING_DEPTH} levels deep`,
            ),
          );
          expect(test.emulator.requests).toHaveLength(0);
        },
      );

      it('refuses a schema with more values than the size limit', async () => {
        const enumValues = Array.from({ length: MAX_SCHEMA_NODES }, (_, index) => index).join(',');
        const response = await post(
          '/v1/chat/completions',
          completion(
            model,
            `"tools":[{"type":"function","function":{"name":"wide","parameters":{"type":"object","properties":{"a":{"enum":[${enumValues}]}}}}}]`,
          ),
        );
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain(`at most ${MAX_SCHEMA_NODES}`);
      });

      it('accepts a tool schema exactly at the depth limit', async () => {
        const parameters = { type: 'object', properties: { a: schemaOfDepth(MAX_SCHEMA_DEPTH - 2) } };
        const response = await post(
          '/v1/chat/completions',
          completion(
            model,
            `"tools":[{"type":"function","function":{"name":"edge","parameters":${JSON.stringify(parameters)}}}]`,
          ),
        );
        expect(response.statusCode, response.body).toBe(200);
        expect(test.emulator.requests).toHaveLength(1);
      });
    });

    it('the official openai SDK gets a BadRequestError at once: one request, no retry, no 5xx', async () => {
      let requests = 0;
      const client = new OpenAI({
        apiKey: key,
        baseURL,
        maxRetries: 2,
        fetch: (input, init) => {
          requests += 1;
          return fetch(input, init);
        },
      });
      const failure = await client.chat.completions
        .create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [
            { type: 'function', function: { name: 'deep', parameters: schemaOfDepth(MAX_SCHEMA_DEPTH + 1) } },
          ],
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(depthLimit);
      expect(requests).toBe(1);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it.each([
      ['flat', (schema: string) => `{"type":"json_schema","schema":${schema}}`, 'body.responseFormat.schema'],
      [
        'wrapped',
        (schema: string) => `{"type":"json_schema","json_schema":{"name":"s","schema":${schema}}}`,
        'body.responseFormat.json_schema.schema',
      ],
    ])(
      'an agent turn refuses a %s response format nested 65 levels, naming the limit',
      async (_name, format, field) => {
        const response = await post(
          `/v1/sessions/${sessionId}/messages`,
          `{"content":"hi","responseFormat":${format(nestedSchemaText(MAX_SCHEMA_DEPTH + 1, 'items'))}}`,
        );
        expect(response.statusCode).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toContain(
          `${field}: is nested more than ${MAX_SCHEMA_DEPTH} levels deep`,
        );
        expect(test.emulator.requests).toHaveLength(0);
      },
    );

    it('the lab refuses a schema nested 65 levels through properties, naming the limit', async () => {
      const response = await post(
        '/v1/admin/structured-output/runs',
        `{"name":"deep","prompt":"p","targets":[{"model":"gpt-4o-mini"}],"schema":${nestedSchemaText(MAX_SCHEMA_DEPTH + 1, 'properties')}}`,
        adminKey,
      );
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(depthLimit);
      expect(test.emulator.requests).toHaveLength(0);
    });

    // Not schemas: deep plain JSON must not crash a parser, a validator or a serializer.
    const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    it.each([
      ['a whole body', '/v1/sessions', () => deepArray(100_000)],
      ['session metadata', '/v1/sessions', () => `{"metadata":{"a":${deepArray(100_000)}}}`],
      ['message content', `/v1/sessions/:session/messages`, () => `{"content":${deepArray(100_000)}}`],
      [
        'a chat message',
        '/v1/chat/completions',
        () => `{"model":"gpt-4o-mini","messages":${deepArray(100_000)}}`,
      ],
      [
        'chat metadata',
        '/v1/chat/completions',
        () => completion('gpt-4o-mini', `"metadata":{"a":${deepArray(50_000)}}`),
      ],
      [
        'an api-key label',
        '/v1/admin/api-keys',
        () => `{"role":"user","externalId":"x","label":${deepArray(100_000)}}`,
      ],
    ])('refuses deep plain JSON in %s with a 400', async (_name, url, payload) => {
      const response = await post(
        url.replace(':session', sessionId),
        payload(),
        url.includes('admin') ? adminKey : key,
      );
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it('refuses deep plain JSON even where the OpenAI route ignores it (message annotations), naming where', async () => {
      const response = await post(
        '/v1/chat/completions',
        `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","annotations":[${deepArray(50_000)}]},{"role":"user","content":"again"}]}`,
      );
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(response.body).toContain('body.messages.1.annotations.0.0.0');
      expect(test.emulator.requests).toHaveLength(0);
    });
  });
}
