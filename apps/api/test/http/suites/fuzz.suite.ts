import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteInventory, type RouteEntry } from '../../../src/routes/route-inventory';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issuePortalKey, issueUserKey } from '../../support/fixtures';
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
            const response = await test.api.app.inject({
              method: route.method as 'GET',
              url,
              headers,
              ...(body === undefined ? {} : { payload: body }),
            });
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
            const response = await test.api.app.inject({
              method: route.method as 'GET',
              url,
              headers,
              ...(route.method === 'GET' || route.method === 'DELETE'
                ? {}
                : { payload: JSON.stringify(body) }),
            });
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
  });
}

/** The OpenAI-compatible routes answer errors in OpenAI's shape, which has no request id. */
const openAiShapedPaths = new Set(['/v1/chat/completions', '/v1/models']);

function describeProblem(response: InjectResponse, path: string): string | undefined {
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
