import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueUserKey, missingId, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

const runsUrl = '/v1/admin/structured-output/runs';

/** One schema that each provider's dialect has to change differently. */
const reviewSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 3, maxLength: 80 },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    note: { type: 'string' },
  },
  required: ['title', 'rating', 'tags'],
  additionalProperties: false,
};

const recursiveSchema = {
  type: 'object',
  properties: { root: { $ref: '#/$defs/node' } },
  required: ['root'],
  additionalProperties: false,
  $defs: {
    node: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
      required: ['name', 'children'],
      additionalProperties: false,
    },
  },
};

const threeProviders = [{ model: 'gpt-test' }, { model: 'claude-test' }, { model: 'gemini-test' }];

/** Credentials the test API holds for the emulator: none may appear in a run. */
const providerKeys = ['sk-emulator', 'sk-ant-emulator', 'gemini-emulator'];

interface ResultJson {
  model: string;
  provider: string | null;
  status: 'ok' | 'error';
  schemaTarget: string | null;
  loweredSchema: Record<string, unknown> | null;
  changes: Array<{ pointer: string; keyword: string; action: string; detail: string }>;
  warnings: unknown[];
  request: Record<string, unknown> | null;
  rawOutput: string | null;
  json: unknown;
  validation: { valid: boolean; errors: Array<{ path: string; keyword: string; message: string }> } | null;
  usage: Record<string, number> | null;
  latencyMs: number;
  attempts: number | null;
  error?: { kind: string; code: string; message: string; pointer?: string; status?: number };
}

interface RunJson {
  id: string;
  name: string;
  actorPrincipalId: string;
  results: ResultJson[];
  [field: string]: unknown;
}

/** The structured-output lab over HTTP: runs over the three providers, failures, validation, listing. */
export function describeLab(engine: Engine): void {
  describe(`structured-output lab (${engine})`, () => {
    let test: TestApi;
    let viewer: User;
    let viewerKey: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine);
      viewer = await createLocalUser(test.api.repositories, 'qa-viewer');
      viewerKey = await issueUserKey(test.api.repositories, viewer, 'viewer');
    });
    afterAll(async () => {
      await test?.close();
    });
    beforeEach(() => {
      test.emulator.reset();
    });

    const createRun = (body: unknown) =>
      test.request({ method: 'POST', url: runsUrl, key: viewerKey.key, body });
    const read = (url: string) => test.request({ method: 'GET', url, key: viewerKey.key });
    const resultOf = (run: RunJson, model: string): ResultJson => {
      const result = run.results.find((candidate) => candidate.model === model);
      if (result === undefined) throw new Error(`no result for ${model}`);
      return result;
    };

    it('lowers one schema three ways, reports each change, sends it, and validates every answer', async () => {
      const response = await createRun({
        name: 'Review extraction v1',
        schema: reviewSchema,
        prompt: 'Review: great phone',
        systemPrompt: 'Extract the review.',
        targets: threeProviders,
      });
      expect(response.statusCode).toBe(201);
      const run = response.json<RunJson>();
      expect(run).toMatchObject({
        name: 'Review extraction v1',
        actorPrincipalId: viewer.id,
        strict: true,
        systemPrompt: 'Extract the review.',
        schema: reviewSchema,
      });
      expect(
        run.results.map((result) => [result.model, result.provider, result.status, result.schemaTarget]),
      ).toEqual([
        ['gpt-test', 'openai', 'ok', 'openai-strict'],
        ['claude-test', 'anthropic', 'ok', 'anthropic'],
        ['gemini-test', 'gemini', 'ok', 'gemini'],
      ]);
      const [openai, anthropic, gemini] = run.results as [ResultJson, ResultJson, ResultJson];

      // Three dialects: three different schemas, each change reported against the original.
      const lowered = new Set(run.results.map((result) => JSON.stringify(result.loweredSchema)));
      expect(lowered.size).toBe(3);
      const changes = (result: ResultJson) =>
        result.changes.map((change) => `${change.pointer} ${change.keyword} ${change.action}`);
      expect(changes(openai)).toContain('/properties/note required made-required-nullable');
      expect(openai.loweredSchema?.['required']).toEqual(['title', 'rating', 'tags', 'note']);
      expect(changes(anthropic)).toEqual(
        expect.arrayContaining([
          '/properties/rating minimum moved-to-description',
          '/properties/tags maxItems moved-to-description',
        ]),
      );
      expect(anthropic.loweredSchema).toMatchObject({
        additionalProperties: false,
        properties: { rating: { description: expect.stringContaining('>= 1') } },
      });
      expect(changes(gemini)).toContain(' additionalProperties dropped');
      expect(gemini.loweredSchema).not.toHaveProperty('additionalProperties');
      expect(new Set(run.results.map((result) => JSON.stringify(result.changes))).size).toBe(3);

      // The request in the result is exactly the body each provider received.
      for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
        const result = run.results.find((candidate) => candidate.provider === provider);
        expect(result?.request, provider).toEqual(test.emulator.lastRequest(provider)?.body);
      }
      expect(openai.request).toMatchObject({
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'Review_extraction_v1', strict: true, schema: openai.loweredSchema },
        },
      });
      expect(anthropic.request).toMatchObject({
        output_config: { format: { type: 'json_schema', schema: anthropic.loweredSchema } },
      });
      expect(gemini.request).toMatchObject({
        generationConfig: { responseMimeType: 'application/json', responseSchema: gemini.loweredSchema },
      });

      for (const result of run.results) {
        expect(result.rawOutput, result.model).toEqual(expect.any(String));
        expect(result.json, result.model).toEqual(
          expect.objectContaining({ title: expect.any(String), tags: expect.any(Array) }),
        );
        expect(result.validation, result.model).toEqual({ valid: true, errors: [] });
        expect(result.usage?.['inputTokens'], result.model).toBeGreaterThan(0);
        expect(result.latencyMs, result.model).toBeGreaterThanOrEqual(0);
        expect(result.attempts, result.model).toBe(1);
        expect(result.error, result.model).toBeUndefined();
      }
      // OpenAI strict had to make `note` nullable; the answer comes back without the null.
      expect(openai.json).not.toHaveProperty('note', null);

      const stored = await read(`${runsUrl}/${run.id}`);
      expect(stored.statusCode).toBe(200);
      expect(stored.json()).toEqual(run);
      for (const key of providerKeys) expect(response.body).not.toContain(key);
    });

    it('records failing targets with their errors while the others succeed', async () => {
      test.emulator.script({
        kind: 'error',
        status: 529,
        retryAfterMs: 0,
        times: 3,
        message: 'Overloaded right now',
        match: { provider: 'anthropic' },
      });
      const response = await createRun({
        name: 'partial failure',
        schema: reviewSchema,
        prompt: 'Review: fine',
        targets: [...threeProviders, { model: 'mystery-model' }],
      });
      expect(response.statusCode).toBe(201);
      const run = response.json<RunJson>();
      expect(run.results.map((result) => [result.model, result.status])).toEqual([
        ['gpt-test', 'ok'],
        ['claude-test', 'error'],
        ['gemini-test', 'ok'],
        ['mystery-model', 'error'],
      ]);
      const anthropic = resultOf(run, 'claude-test');
      expect(anthropic).toMatchObject({
        provider: 'anthropic',
        schemaTarget: 'anthropic',
        attempts: 3,
        rawOutput: null,
        json: null,
        validation: null,
        error: { kind: 'provider', status: 529, message: expect.stringContaining('Overloaded right now') },
      });
      // What it was sent is still shown: the exact request, the lowered schema and its report.
      expect(anthropic.request).toEqual(test.emulator.lastRequest('anthropic')?.body);
      expect(anthropic.loweredSchema).toMatchObject({ additionalProperties: false });
      expect(anthropic.changes.length).toBeGreaterThan(0);
      expect(test.emulator.requests.filter((request) => request.provider === 'anthropic')).toHaveLength(3);
      expect(resultOf(run, 'mystery-model')).toMatchObject({
        provider: null,
        loweredSchema: null,
        error: { kind: 'routing', code: 'unknown-model', message: expect.stringContaining('mystery-model') },
      });
      expect(resultOf(run, 'gpt-test').validation?.valid).toBe(true);
      expect(resultOf(run, 'gemini-test').validation?.valid).toBe(true);
      for (const key of providerKeys) expect(response.body).not.toContain(key);
      expect((await read(`${runsUrl}/${run.id}`)).json()).toEqual(run);
    });

    it('a recursive schema: OpenAI strict keeps the recursion, Anthropic and Gemini get it unrolled and reported', async () => {
      const response = await createRun({
        name: 'tree',
        schema: recursiveSchema,
        prompt: 'A small tree',
        targets: threeProviders,
      });
      expect(response.statusCode).toBe(201);
      const run = response.json<RunJson>();
      const openai = resultOf(run, 'gpt-test');
      expect(openai).toMatchObject({
        status: 'ok',
        schemaTarget: 'openai-strict',
        validation: { valid: true, errors: [] },
      });
      expect(openai.loweredSchema).toHaveProperty('$defs');
      for (const model of ['claude-test', 'gemini-test']) {
        const result = resultOf(run, model);
        expect(result, model).toMatchObject({ status: 'ok', validation: { valid: true, errors: [] } });
        expect(JSON.stringify(result.loweredSchema)).not.toContain('$ref');
        expect(
          result.changes
            .filter((change) => change.action === 'recursion-unrolled')
            .map((change) => `${change.pointer} ${change.keyword}`),
        ).toEqual(['/$defs/node/properties/children items', '/$defs/node/properties/children/items $ref']);
      }
      expect(test.emulator.requests.map((request) => request.provider).sort()).toEqual([
        'anthropic',
        'gemini',
        'openai',
      ]);
    });

    it('reports an answer that violates the original schema, with the path of each violation', async () => {
      test.emulator.script({
        kind: 'json',
        value: { title: 'ok', rating: 9, tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
        match: { provider: 'anthropic' },
      });
      const response = await createRun({
        name: 'violations',
        schema: reviewSchema,
        prompt: 'Review: meh',
        targets: threeProviders,
      });
      const anthropic = resultOf(response.json<RunJson>(), 'claude-test');
      expect(anthropic.status).toBe('ok');
      expect(anthropic.rawOutput).toBe(
        JSON.stringify({ title: 'ok', rating: 9, tags: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      );
      expect(anthropic.json).toEqual({ title: 'ok', rating: 9, tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
      expect(anthropic.validation?.valid).toBe(false);
      expect(anthropic.validation?.errors.map((issue) => [issue.path, issue.keyword])).toEqual(
        expect.arrayContaining([
          ['/title', 'minLength'],
          ['/rating', 'maximum'],
          ['/tags', 'maxItems'],
        ]),
      );
      expect(resultOf(response.json<RunJson>(), 'gpt-test').validation?.valid).toBe(true);
    });

    it('reports output that is not JSON at all', async () => {
      test.emulator.script({ kind: 'json', text: '{"title": "cut off', match: { provider: 'gemini' } });
      const run = (
        await createRun({
          name: 'truncated',
          schema: reviewSchema,
          prompt: 'x',
          targets: [{ model: 'gemini-test' }],
        })
      ).json<RunJson>();
      expect(run.results[0]).toMatchObject({
        status: 'ok',
        rawOutput: '{"title": "cut off',
        json: null,
        validation: { valid: false, errors: [expect.objectContaining({ keyword: 'json' })] },
      });
    });

    it('a hung provider times out alone; the run still answers', async () => {
      test.emulator.script({ kind: 'hang', match: { provider: 'gemini' } });
      // The hung call never answers: without its timeout the run would not answer either, and the
      // test's own timeout is the bound. Which deadline ended it is read off the error, not a clock.
      const response = await createRun({
        name: 'slow',
        schema: reviewSchema,
        prompt: 'x',
        targets: threeProviders,
        timeoutMs: 1_000,
      });
      expect(response.statusCode).toBe(201);
      const run = response.json<RunJson>();
      expect(resultOf(run, 'gemini-test')).toMatchObject({
        status: 'error',
        error: {
          kind: 'timeout',
          code: 'timeout',
          message: 'No answer within 1000 ms (retries included); the call was cancelled',
        },
      });
      expect(resultOf(run, 'gpt-test').status).toBe('ok');
      expect(resultOf(run, 'claude-test').status).toBe('ok');
    });

    it('sends the schema unchanged to OpenAI when strict is off', async () => {
      const run = (
        await createRun({
          name: 'loose',
          schema: reviewSchema,
          prompt: 'x',
          strict: false,
          targets: [{ model: 'gpt-test' }],
        })
      ).json<RunJson>();
      expect(run['strict']).toBe(false);
      expect(run.results[0]).toMatchObject({
        status: 'ok',
        schemaTarget: null,
        loweredSchema: reviewSchema,
        changes: [],
      });
      expect(run.results[0]?.request).toMatchObject({
        response_format: { type: 'json_schema', json_schema: { schema: reviewSchema } },
      });
      expect(run.results[0]?.request).not.toHaveProperty('response_format.json_schema.strict');
    });

    const validBody = { name: 'x', schema: reviewSchema, prompt: 'p', targets: [{ model: 'gpt-test' }] };
    // What the client sent is stored as sent or refused: never altered (U+FFFD) on one engine and a 500 on the other.
    it.each([
      [
        'name',
        { name: 'odd \uD800 name' },
        'body.name: contains an unpaired UTF-16 surrogate at index 4 (U+D800)',
      ],
      ['prompt', { prompt: 'p\uD800' }, 'body.prompt: contains an unpaired UTF-16 surrogate at index 1'],
      [
        'systemPrompt',
        { systemPrompt: 's\uDBFF' },
        'body.systemPrompt: contains an unpaired UTF-16 surrogate',
      ],
      [
        'a target model',
        { targets: [{ model: 'gpt-\uD800' }] },
        'body.targets.0.model: contains an unpaired',
      ],
      [
        'a schema key',
        { schema: { type: 'object', properties: { 'key\uDC00': { type: 'string' } } } },
        'body.schema.properties: the key "key\\udc00" contains an unpaired UTF-16 surrogate at index 3 (U+DC00)',
      ],
      [
        'a schema description',
        { schema: { type: 'object', properties: { a: { type: 'string', description: 'x\u0000' } } } },
        'body.schema.properties.a.description: contains a NUL character (U+0000), which cannot be stored',
      ],
    ])('refuses text no engine stores unchanged in %s, naming the field', async (_field, change, message) => {
      const response = await createRun({ ...validBody, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(message);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it.each([
      [
        'nested 65 levels',
        65,
        'body.schema: is nested more than 64 levels deep',
        'may be nested at most 64 levels',
      ],
      // Past every body's nesting bound, which answers before the schema's own check.
      ['nested 1,000 levels', 1_000, 'body.schema.items.items', 'nested more than 100 levels deep'],
    ])('refuses a schema %s with a 400 that states the limit', async (_name, depth, where, limit) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 1; level < depth; level += 1) schema = { type: 'array', items: schema };
      const response = await createRun({ ...validBody, schema });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(where);
      expect(response.json().error.message).toContain(limit);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it.each([
      [{ ...validBody, name: undefined }, 'name'],
      [{ ...validBody, name: '' }, 'name'],
      [{ ...validBody, prompt: '' }, 'prompt'],
      [{ ...validBody, schema: [reviewSchema] }, 'schema'],
      [{ ...validBody, schema: 'object' }, 'schema'],
      [{ ...validBody, schema: { type: 5 } }, 'body.schema: The schema could not be compiled'],
      [
        { ...validBody, schema: { $ref: '#/$defs/missing' } },
        'body.schema: The schema could not be compiled',
      ],
      [{ ...validBody, targets: [] }, 'targets'],
      [{ ...validBody, targets: Array.from({ length: 13 }, () => ({ model: 'gpt-test' })) }, 'targets'],
      [{ ...validBody, targets: [{ model: 'gpt-test', provider: 'openai' }] }, 'provider'],
      [{ ...validBody, targets: [{ model: '' }] }, 'model'],
      [{ ...validBody, strict: 'yes' }, 'strict'],
      [{ ...validBody, timeoutMs: 10 }, 'timeoutMs'],
      [{ ...validBody, extra: true }, 'extra'],
    ])('refuses a bad body %j with a 400 naming the problem', async (body, mentioned) => {
      const response = await createRun(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(mentioned);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it('lists runs newest first with a cursor, reads one, and answers 404 for a missing run', async () => {
      const created: RunJson[] = [];
      for (const name of ['first', 'second', 'third']) {
        created.push(
          (
            await createRun({
              name,
              schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
              prompt: 'ok?',
              targets: [{ model: 'gpt-test' }, { model: 'nope' }],
            })
          ).json<RunJson>(),
        );
      }
      const firstPage = await read(`${runsUrl}?limit=2`);
      expect(firstPage.statusCode).toBe(200);
      const page = firstPage.json<{ items: Array<Record<string, unknown>>; nextCursor: string | null }>();
      expect(page.items.map((item) => item['name'])).toEqual(['third', 'second']);
      expect(page.items[0]).toEqual({
        id: created[2]?.id,
        name: 'third',
        actorPrincipalId: viewer.id,
        actorName: viewer.displayName,
        strict: true,
        targets: [
          { model: 'gpt-test', provider: 'openai', status: 'ok', valid: true, latencyMs: expect.any(Number) },
          { model: 'nope', provider: null, status: 'error', valid: null, latencyMs: expect.any(Number) },
        ],
        createdAt: created[2]?.['createdAt'],
        finishedAt: created[2]?.['finishedAt'],
        durationMs: expect.any(Number),
      });
      expect(page.nextCursor).not.toBeNull();
      const secondPage = (await read(`${runsUrl}?limit=2&cursor=${page.nextCursor}`)).json<{
        items: Array<{ id: string }>;
      }>();
      expect(secondPage.items[0]?.id).toBe(created[0]?.id);

      expect((await read(`${runsUrl}/${created[1]?.id}`)).json()).toEqual(created[1]);
      const missing = await read(`${runsUrl}/${missingId}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
      expect((await read(`${runsUrl}/not-an-id`)).statusCode).toBe(400);
      expect((await read(`${runsUrl}?cursor=bm9wZQ`)).statusCode).toBe(400);
      expect((await read(`${runsUrl}?limit=500`)).statusCode).toBe(400);
    });
  });
}
