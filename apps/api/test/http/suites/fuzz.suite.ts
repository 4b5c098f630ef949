import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteInventory, type RouteEntry } from '../../../src/routes/route-inventory';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issuePortalKey, issueUserKey } from '../../support/fixtures';
import { injectOpenStream, openStreamRoutes } from '../../support/inject-open-stream';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * Property: whatever a client sends — any path parameter, query string, JSON (or broken) body and
 * header values — on any route, the answer is never a 5xx, and every error has the stable body.
 */

const knownFields = [
  'label',
  'model',
  'systemPrompt',
  'metadata',
  'role',
  'userId',
  'ownerUserId',
  'externalId',
  'displayName',
  'portalId',
  'trustClientUserId',
  'limit',
  'cursor',
  'status',
  'createdFrom',
  'createdBefore',
  'reason',
  'includeRevoked',
  'search',
  'actorId',
  'targetUserId',
  'sessionId',
  'action',
  'from',
  'before',
  '__proto__',
  'constructor',
];

const awkwardStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\n',
  '%',
  '%_\\',
  '..',
  '../../etc/passwd',
  '😀',
  '\ud800',
  'null',
  'true',
  '-1',
  '0',
  '101',
  '1e309',
  '9007199254740993',
  '2026-01-01T00:00:00Z',
  '2026-13-45T99:99:99Z',
  'bm9wZQ',
  'WyJ0IiwxLCJ4Il0',
  'WyJzIiwtMV0',
  'x'.repeat(5000),
  'open',
  'closed',
  'portal',
  'admin',
  'user',
  'viewer',
  'adk_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
);

// Characters that trip databases and parsers: NUL (PostgreSQL refuses it in text and jsonb), LIKE wildcards, escapes, surrogates.
const trickyCharacters = fc.string({
  unit: fc.constantFrom(
    '\u0000',
    '\u0001',
    '\n',
    '\t',
    '%',
    '_',
    '\\',
    "'",
    '"',
    'a',
    'Z',
    '0',
    '😀',
    '\ud800',
    '\u202e',
  ),
  maxLength: 12,
});

const anyString = fc.oneof(
  trickyCharacters,
  fc.string(),
  fc.string({ unit: 'binary' }),
  awkwardStrings,
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);

const jsonLeaf = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const jsonish = fc.oneof(fc.jsonValue({ maxDepth: 4 }), jsonLeaf, fc.array(jsonLeaf, { maxLength: 5 }));

const bodies = fc.oneof(
  fc
    .dictionary(fc.oneof(fc.constantFrom(...knownFields), fc.string()), jsonish, { maxKeys: 6 })
    .map((value) => JSON.stringify(value)),
  fc
    .record({ label: anyString, metadata: jsonish }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
  jsonish.map((value) => JSON.stringify(value) ?? 'null'),
  fc.constantFrom(
    '{',
    '{"label":',
    '[1,2',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{}}}',
    'null',
    '""',
    '{}',
  ),
  fc.string(),
  fc.constant(undefined),
);

const queryStrings = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...knownFields), fc.string({ maxLength: 10 })), anyString), {
    maxLength: 5,
  })
  .map((pairs) => {
    const search = new URLSearchParams();
    for (const [key, value] of pairs) search.append(key, value);
    return search.toString();
  });

// Header values must be sendable: visible ASCII/Latin-1 without line breaks.
const headerValue = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 300,
  }),
  fc.constantFrom('', ' '),
);

/** Replaces lone surrogates, which cannot be percent-encoded (raw bad escapes are sent separately). */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Query parameters and body fields of one operation, read from the app's OpenAPI document. */
interface OperationShape {
  readonly query: string[];
  readonly body: string[];
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string }>;
        requestBody?: { content: Record<string, { schema?: SchemaShape }> };
      }
    >
  >;
};
type SchemaShape = { properties?: Record<string, unknown>; anyOf?: SchemaShape[]; oneOf?: SchemaShape[] };

function fieldsOf(schema: SchemaShape | undefined): string[] {
  if (schema === undefined) return [];
  return [
    ...Object.keys(schema.properties ?? {}),
    ...(schema.anyOf ?? []).flatMap(fieldsOf),
    ...(schema.oneOf ?? []).flatMap(fieldsOf),
  ];
}

function operationShape(document: OpenApiDocument, route: RouteEntry): OperationShape {
  const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  return {
    query: (operation?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name),
    body: [...new Set(fieldsOf(operation?.requestBody?.content['application/json']?.schema))],
  };
}

// Arbitrary UTF-16 code units, weighted towards the ones storage trips on: NUL, lone and paired surrogate halves.
const codeUnit = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\ud83d',
      '\ude00',
      '\ufffd',
      'é',
      '\n',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
);
const codeUnitText = fc.string({ unit: codeUnit, maxLength: 10 });
const codeUnitJson = fc.jsonValue({ maxDepth: 3, stringUnit: codeUnit });

/**
 * The oracle, independent of the code under test: text both engines store unchanged survives a
 * UTF-8 round trip (an unpaired surrogate does not) and holds no NUL (PostgreSQL refuses it).
 */
function storableEverywhere(value: unknown): boolean {
  if (typeof value === 'string')
    return !value.includes('\u0000') && Buffer.from(value, 'utf8').toString('utf8') === value;
  if (Array.isArray(value)) return value.every(storableEverywhere);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).every(([key, item]) => storableEverywhere(key) && storableEverywhere(item));
  return true;
}

const unstorableProblem = /contains (an unpaired UTF-16 surrogate at index \d+|a NUL character \(U\+0000\))/;

/** One write route, a body drawn from arbitrary code units, and how to read back what was stored. */
interface RoundTripWrite {
  readonly name: string;
  readonly body: fc.Arbitrary<Record<string, unknown>>;
  send(body: Record<string, unknown>): Promise<InjectResponse>;
  /** After a 2xx: what the API gives back (from the database, or what the provider received), to equal `expected`. */
  readBack(
    response: InjectResponse,
    body: Record<string, unknown>,
  ): Promise<{ actual: unknown; expected: unknown }>;
}

/** The write routes of one API, each with a body of arbitrary code units and its read-back. */
async function roundTripWrites(
  test: TestApi,
  keys: Record<'admin' | 'user', string>,
): Promise<RoundTripWrite[]> {
  const repositories = test.api.repositories;
  const writer = await createLocalUser(repositories, 'round-trip-writer');
  const writerKey = (await issueUserKey(repositories, writer)).key;
  const json = { 'content-type': 'application/json' };
  const as = (caller: 'admin' | 'user') => ({ ...json, authorization: `Bearer ${keys[caller]}` });
  // What was sent, as the server parsed it: the JSON text is the contract (e.g. -0 travels as 0).
  const sent = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
  const sessionFields = (body: Record<string, unknown>) => ({
    label: body['label'],
    systemPrompt: body['systemPrompt'],
    metadata: body['metadata'],
  });
  const storedSession = async (id: string, body: Record<string, unknown>) => {
    const read = (
      await test.api.app.inject({ method: 'GET', url: `/v1/sessions/${id}`, headers: as('user') })
    ).json<Record<string, unknown>>();
    const expected = sent(sessionFields(body)) as Record<string, unknown>;
    const actual = Object.fromEntries(Object.keys(expected).map((field) => [field, read[field]]));
    return { actual, expected };
  };
  const sessionBody = fc.record(
    {
      label: codeUnitText,
      systemPrompt: codeUnitText,
      metadata: fc.dictionary(codeUnitText, codeUnitJson, { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  );
  return [
    {
      name: 'POST /v1/sessions',
      body: sessionBody,
      send: (body) =>
        test.api.app.inject({
          method: 'POST',
          url: '/v1/sessions',
          headers: as('user'),
          payload: JSON.stringify(body),
        }),
      readBack: (response, body) => storedSession(response.json<{ id: string }>().id, body),
    },
    {
      name: 'PATCH /v1/sessions/:id',
      body: sessionBody.filter((body) => Object.keys(body).length > 0),
      send: async (body) => {
        const session = await createSession(repositories, writer, 'patched');
        return test.api.app.inject({
          method: 'PATCH',
          url: `/v1/sessions/${session.id}`,
          headers: { ...json, authorization: `Bearer ${writerKey}` },
          payload: JSON.stringify(body),
        });
      },
      readBack: async (response, body) => {
        const id = response.json<{ id: string }>().id;
        const read = (
          await test.api.app.inject({
            method: 'GET',
            url: `/v1/sessions/${id}`,
            headers: { authorization: `Bearer ${writerKey}` },
          })
        ).json<Record<string, unknown>>();
        const expected = sent(sessionFields(body)) as Record<string, unknown>;
        return {
          actual: Object.fromEntries(Object.keys(expected).map((field) => [field, read[field]])),
          expected,
        };
      },
    },
    {
      name: 'POST /v1/sessions/:id/messages',
      body: fc.record({
        content: fc.oneof(
          codeUnitText,
          fc.array(fc.record({ type: fc.constant('text'), text: codeUnitText }), {
            minLength: 1,
            maxLength: 3,
          }),
        ),
      }),
      send: async (body) => {
        const session = await createSession(repositories, writer, 'turns');
        return test.api.app.inject({
          method: 'POST',
          url: `/v1/sessions/${session.id}/messages`,
          headers: { ...json, authorization: `Bearer ${writerKey}` },
          payload: JSON.stringify(body),
        });
      },
      readBack: async (response, body) => {
        const sessionId = response.json<{ messages: Array<{ sessionId: string }> }>().messages[0]!.sessionId;
        const page = (
          await test.api.app.inject({
            method: 'GET',
            url: `/v1/sessions/${sessionId}/messages`,
            headers: { authorization: `Bearer ${writerKey}` },
          })
        ).json<{ items: Array<{ role: string; contentParts: Array<{ text?: string }> }> }>();
        const user = page.items.find((message) => message.role === 'user');
        const content = body['content'];
        const texts =
          typeof content === 'string'
            ? [content]
            : (content as Array<{ text: string }>).map((part) => part.text);
        return { actual: user?.contentParts.map((part) => part.text), expected: texts };
      },
    },
    {
      name: 'POST /v1/admin/api-keys',
      body: fc.record({
        role: fc.constant('user'),
        label: codeUnitText,
        externalId: codeUnitText,
        displayName: codeUnitText,
      }),
      send: (body) =>
        test.api.app.inject({
          method: 'POST',
          url: '/v1/admin/api-keys',
          headers: as('admin'),
          payload: JSON.stringify(body),
        }),
      readBack: async (response, body) => {
        const id = response.json<{ apiKey: { id: string } }>().apiKey.id;
        const listed = (
          await test.api.app.inject({
            method: 'GET',
            url: '/v1/admin/api-keys?limit=1',
            headers: as('admin'),
          })
        ).json<{ items: Array<{ id: string; label: string }> }>();
        // The newest key must be the one just created, with its label as sent (ids differ per engine).
        return {
          actual: listed.items.map((key) => (key.id === id ? key.label : { anotherKey: key.id })),
          expected: [body['label']],
        };
      },
    },
    {
      name: 'POST /v1/chat/completions',
      body: fc.record({
        model: fc.constant('gpt-4o-mini'),
        messages: fc.tuple(codeUnitText).map(([content]) => [{ role: 'user', content }]),
        metadata: fc.dictionary(codeUnitText, codeUnitText, { maxKeys: 2 }),
      }),
      send: (body) =>
        test.api.app.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: as('user'),
          payload: JSON.stringify(body),
        }),
      readBack: async (_response, body) => {
        const received = test.emulator.lastRequest('openai')?.body as { messages: unknown[] };
        return { actual: received.messages.at(-1), expected: sent((body['messages'] as unknown[])[0]) };
      },
    },
    {
      name: 'POST /v1/admin/structured-output/runs',
      body: fc.record({
        name: codeUnitText,
        prompt: codeUnitText,
        schema: fc.record({
          type: fc.constant('object'),
          description: codeUnitText,
          title: codeUnitText,
        }),
        targets: fc.constant([{ model: 'gpt-4o-mini' }]),
      }),
      send: (body) =>
        test.api.app.inject({
          method: 'POST',
          url: '/v1/admin/structured-output/runs',
          headers: as('admin'),
          payload: JSON.stringify(body),
        }),
      readBack: async (response, body) => {
        const id = response.json<{ id: string }>().id;
        const run = (
          await test.api.app.inject({
            method: 'GET',
            url: `/v1/admin/structured-output/runs/${id}`,
            headers: as('admin'),
          })
        ).json<Record<string, unknown>>();
        return {
          actual: { name: run['name'], prompt: run['prompt'], schema: run['schema'] },
          expected: sent({ name: body['name'], prompt: body['prompt'], schema: body['schema'] }),
        };
      },
    },
  ];
}

export function describeFuzz(engine: Engine): void {
  describe(`fuzzing bodies, parameters and headers (${engine})`, () => {
    let test: TestApi;
    let routes: RouteEntry[];
    let keys: Record<'admin' | 'user' | 'portal', string>;
    let existingIds: string[];

    beforeAll(async () => {
      test = await startTestApi(engine);
      const repositories = test.api.repositories;
      const alice = await createLocalUser(repositories, 'alice');
      const admin = await createLocalUser(repositories, 'fuzz-admin');
      const carol = await repositories.users.ensurePortalUser('shop', 'carol');
      keys = {
        admin: (await issueUserKey(repositories, admin, 'admin')).key,
        user: (await issueUserKey(repositories, alice)).key,
        portal: (await issuePortalKey(repositories, 'shop', true)).key,
      };
      existingIds = [];
      for (const owner of [alice, carol, admin]) {
        for (let index = 0; index < 3; index += 1)
          existingIds.push((await createSession(repositories, owner, `fuzz ${index}`, 2)).id);
      }
      existingIds.push((await issueUserKey(repositories, alice)).stored.id);
      routes = test.api.app.get(RouteInventory).routes();
    });

    afterAll(async () => {
      await test?.close();
    });

    it('never answers 5xx, on any route, whatever the input', async () => {
      expect(routes.length).toBeGreaterThan(15);
      // Encoded path segments, plus raw ones a client could send: bad escapes, NUL, invalid UTF-8, slashes.
      const pathParameter = fc.oneof(
        anyString.map((value) => encodeURIComponent(wellFormed(value))),
        fc.constantFrom(...existingIds),
        fc.constantFrom('%', '%zz', '%ED%A0%80', '%C0%AF', '%00', '%2F', '..%2F..', '%252F', 'a%20b', ''),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.constantFrom('admin', 'user', 'portal', 'none') as fc.Arbitrary<
            'admin' | 'user' | 'portal' | 'none'
          >,
          pathParameter,
          queryStrings,
          bodies,
          fc.record(
            { endUser: headerValue, reason: headerValue, requestId: headerValue },
            { requiredKeys: [] },
          ),
          async (route, caller, parameter, query, body, extraHeaders) => {
            const headers: Record<string, string> = {};
            if (caller !== 'none') headers['authorization'] = `Bearer ${keys[caller]}`;
            if (extraHeaders.endUser !== undefined) headers['x-end-user-id'] = extraHeaders.endUser;
            if (extraHeaders.reason !== undefined) headers['x-audit-reason'] = extraHeaders.reason;
            if (extraHeaders.requestId !== undefined) headers['x-request-id'] = extraHeaders.requestId;
            if (body !== undefined) headers['content-type'] = 'application/json';
            const path = route.path.replace(/:(\w+)/g, () => parameter);
            const url = query.length > 0 ? `${path}?${query}` : path;
            const injected = {
              method: route.method as 'GET',
              url,
              headers,
              ...(body === undefined ? {} : { payload: body }),
            };
            const response = openStreamRoutes.has(`${route.method} ${route.path}`)
              ? await injectOpenStream(test.api.app, injected)
              : await test.api.app.inject(injected);
            const problem = describeProblem(response, route.path);
            if (problem !== undefined)
              throw new Error(
                `${route.method} ${url} (${caller}) body=${String(body).slice(0, 200)} → ${problem}`,
              );
          },
        ),
        { numRuns: 1500, seed: 20260101 },
      );
    });

    it('never answers 5xx to well-shaped requests with hostile values (fields read from the OpenAPI document)', async () => {
      const document = (
        await test.api.app.inject({ method: 'GET', url: '/openapi.json' })
      ).json<OpenApiDocument>();
      const shaped = routes.map((route) => ({ route, shape: operationShape(document, route) }));
      expect(shaped.some(({ shape }) => shape.body.includes('metadata'))).toBe(true);
      expect(shaped.some(({ shape }) => shape.query.includes('label'))).toBe(true);
      const value = fc.oneof(anyString, jsonish, fc.dictionary(anyString, jsonish, { maxKeys: 3 }));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...shaped),
          fc.constantFrom('admin', 'user', 'portal') as fc.Arbitrary<'admin' | 'user' | 'portal'>,
          fc.oneof(
            fc.constantFrom(...existingIds),
            anyString.map((text) => encodeURIComponent(wellFormed(text))),
          ),
          fc.func(fc.boolean()),
          fc.array(anyString, { minLength: 8, maxLength: 8 }),
          fc.array(value, { minLength: 8, maxLength: 8 }),
          anyString,
          async ({ route, shape }, caller, parameter, include, queryValues, bodyValues, endUser) => {
            const search = new URLSearchParams();
            shape.query.forEach((name, index) => {
              if (include(name)) search.append(name, queryValues[index % queryValues.length] ?? '');
            });
            const body: Record<string, unknown> = {};
            shape.body.forEach((name, index) => {
              if (include(`body:${name}`)) body[name] = bodyValues[index % bodyValues.length];
            });
            const headers: Record<string, string> = {
              authorization: `Bearer ${keys[caller]}`,
              'content-type': 'application/json',
            };
            // The end user a portal names must be a sendable header value; hostile characters are percent-kept.
            if (caller === 'portal')
              headers['x-end-user-id'] = endUser.replace(/[^\x20-\x7e]/g, '?') || 'carol';
            const path = route.path.replace(/:(\w+)/g, () => parameter);
            const query = search.toString();
            const url = query.length > 0 ? `${path}?${query}` : path;
            const injected = {
              method: route.method as 'GET',
              url,
              headers,
              ...(route.method === 'GET' || route.method === 'DELETE'
                ? {}
                : { payload: JSON.stringify(body) }),
            };
            const response = openStreamRoutes.has(`${route.method} ${route.path}`)
              ? await injectOpenStream(test.api.app, injected)
              : await test.api.app.inject(injected);
            const problem = describeProblem(response, route.path);
            if (problem !== undefined)
              throw new Error(
                `${route.method} ${url} (${caller}) body=${JSON.stringify(body).slice(0, 300)} → ${problem}`,
              );
          },
        ),
        { numRuns: 1500, seed: 20260102 },
      );
    });

    it('writes arbitrary code units in any field: 2xx with an exact round trip, or a 400 naming the problem — never 5xx', async () => {
      const writes = await roundTripWrites(test, keys);
      const outcomes = { stored: 0, refusedAsUnstorable: 0, refusedOtherwise: 0 };
      await fc.assert(
        fc.asyncProperty(
          // By name, so a counterexample prints the route and the body, not the arbitrary.
          fc
            .constantFrom(...writes.map((write) => write.name))
            .chain((route) =>
              writes.find((write) => write.name === route)!.body.map((body) => ({ route, body })),
            ),
          async ({ route, body }) => {
            const write = writes.find((candidate) => candidate.name === route)!;
            const response = await write.send(body);
            const context = `${write.name} ${JSON.stringify(body)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
            expect(response.statusCode, context).toBeLessThan(500);
            if (!storableEverywhere(body)) {
              expect(response.statusCode, context).toBe(400);
              expect(response.body, context).toMatch(unstorableProblem);
              outcomes.refusedAsUnstorable += 1;
              return;
            }
            if (response.statusCode >= 400) {
              // Some other rule (a line break in a label, an empty prompt…), never the storable-text one.
              expect(response.statusCode, context).toBe(400);
              expect(response.body, context).not.toMatch(unstorableProblem);
              outcomes.refusedOtherwise += 1;
              return;
            }
            const { actual, expected } = await write.readBack(response, body);
            expect(actual, context).toEqual(expected);
            outcomes.stored += 1;
          },
        ),
        { numRuns: 400, seed: 20260103 },
      );
      // The property must have exercised both sides: exact round trips and refusals of unstorable text.
      expect(outcomes.stored).toBeGreaterThan(40);
      expect(outcomes.refusedAsUnstorable).toBeGreaterThan(40);
    });
  });
}

/**
 * SQLite and PostgreSQL side by side: the same arbitrary write gets the same status and the same
 * error message from both, and a stored write reads back the same from both.
 */
export function describeEnginesAgree(): void {
  describe('SQLite and PostgreSQL answer arbitrary text alike', () => {
    const apis: Partial<Record<Engine, { test: TestApi; writes: RoundTripWrite[] }>> = {};

    beforeAll(async () => {
      for (const engine of ['sqlite', 'postgres'] as const) {
        const test = await startTestApi(engine);
        const repositories = test.api.repositories;
        const keys = {
          admin: (
            await issueUserKey(repositories, await createLocalUser(repositories, 'agree-admin'), 'admin')
          ).key,
          user: (await issueUserKey(repositories, await createLocalUser(repositories, 'agree-user'))).key,
        };
        apis[engine] = { test, writes: await roundTripWrites(test, keys) };
      }
    });
    afterAll(async () => {
      await apis.sqlite?.test.close();
      await apis.postgres?.test.close();
    });

    it('same status, same error message, same stored value', async () => {
      const sqlite = apis.sqlite!;
      const postgres = apis.postgres!;
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...sqlite.writes.map((write) => write.name))
            .chain((route) =>
              sqlite.writes.find((write) => write.name === route)!.body.map((body) => ({ route, body })),
            ),
          async ({ route, body }) => {
            const answers = await Promise.all(
              [sqlite, postgres].map(async ({ writes }) => {
                const write = writes.find((candidate) => candidate.name === route)!;
                const response = await write.send(body);
                const outcome =
                  response.statusCode < 300
                    ? (await write.readBack(response, body)).actual
                    : response.json<{ error: { message: string } }>().error.message;
                return { status: response.statusCode, outcome };
              }),
            );
            expect(answers[1], `${route} ${JSON.stringify(body)}`).toEqual(answers[0]);
            expect(answers[0]!.status).toBeLessThan(500);
          },
        ),
        { numRuns: 200, seed: 20260104 },
      );
    });
  });
}

/** The OpenAI-compatible routes answer errors in OpenAI's shape, which has no request id. */
const openAiShapedPaths = new Set(['/v1/chat/completions', '/v1/models']);

/** Readiness probes answer 503 NOT_READY by design while what they report is not ready (the sandbox is off here). */
const readinessPaths = new Set(['/readyz/sandbox']);

function describeProblem(response: InjectResponse, path: string): string | undefined {
  if (readinessPaths.has(path) && response.statusCode === 503 && response.body.includes('NOT_READY'))
    return undefined;
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode < 400) return undefined;
  if (openAiShapedPaths.has(path)) {
    try {
      const body = response.json<{ error?: Record<string, unknown> }>();
      const ok =
        typeof body.error?.['message'] === 'string' &&
        typeof body.error['type'] === 'string' &&
        'param' in body.error &&
        'code' in body.error;
      return ok ? undefined : `unexpected OpenAI error body ${response.body.slice(0, 200)}`;
    } catch {
      return `non-JSON error body ${response.body.slice(0, 200)}`;
    }
  }
  try {
    const body = response.json<{ error?: { code?: unknown; message?: unknown; requestId?: unknown } }>();
    if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string')
      return `unexpected error body ${response.body.slice(0, 200)}`;
    if (body.error.requestId !== response.headers['x-request-id']) return 'error body without the request id';
  } catch {
    return `non-JSON error body ${response.body.slice(0, 200)}`;
  }
  return undefined;
}
