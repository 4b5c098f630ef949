import fc from 'fast-check';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIErrorBodySchema } from '../../../src/openai-compat/openai-error';
import { RouteInventory } from '../../../src/routes/route-inventory';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueUserKey, missingId, type IssuedKey } from '../../support/fixtures';
import { rawHttp, rawRequest, type RawResponse } from '../../support/raw-http';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';
import { protectedRouteExpectations } from './authorization-matrix.suite';

const bodyLimitBytes = 2048;

/** Content types no route accepts: every body is JSON, sent as `application/json`. */
const refusedContentTypes = [
  'application/x-www-form-urlencoded',
  'APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8',
  'multipart/form-data; boundary=xyz',
  'text/plain',
  'text/plain; charset=utf-8',
  'text/json',
  'application/jsonx',
  'application/json-seq',
  'application/merge-patch+json',
  'application/xml',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
];

/** Asserts AgentDesk's error body: exactly `{ error: { code, message, requestId } }`, id = header. */
function expectApiError(
  response: RawResponse | InjectResponse,
  status: number,
  code: string,
  what: string,
): { code: string; message: string; requestId: string } {
  const statusCode = 'status' in response ? response.status : response.statusCode;
  const body = response.json<{ error: { code: string; message: string; requestId: string } }>();
  expect(statusCode, what).toBe(status);
  expect(Object.keys(body), what).toEqual(['error']);
  expect(Object.keys(body.error).sort(), what).toEqual(['code', 'message', 'requestId']);
  expect(body.error.code, what).toBe(code);
  expect(body.error.requestId, what).toMatch(/^[0-9a-f-]{36}$/);
  expect(body.error.requestId, what).toBe(response.headers['x-request-id']);
  return body.error;
}

/** Asserts OpenAI's error body (strict: nothing else in it). */
function expectOpenAIError(response: RawResponse | InjectResponse, status: number, what: string): string {
  const statusCode = 'status' in response ? response.status : response.statusCode;
  expect(statusCode, what).toBe(status);
  const parsed = openAIErrorBodySchema.safeParse(response.json());
  expect(parsed.success, `${what}: ${JSON.stringify(response.json())}`).toBe(true);
  return parsed.data?.error.message ?? '';
}

export function describeHttpBoundary(engine: Engine): void {
  describe(`HTTP boundary: body formats, error shapes, dev mode (${engine})`, () => {
    let test: TestApi;
    let url: string;
    let admin: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine, { AGENTDESK_BODY_LIMIT_BYTES: String(bodyLimitBytes) });
      admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'boss'),
        'admin',
      );
      url = await test.api.listen();
    });
    afterAll(async () => {
      await test.close();
    });

    const sessionCount = async () =>
      (await test.api.repositories.sessions.listAllSessionsForAdmin({}, { limit: 100 })).items.length;

    it('every route that takes a body refuses every other content type with 415 naming application/json, before doing anything', async () => {
      const bodyRoutes = test.api.app
        .get(RouteInventory)
        .routes()
        .filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method));
      expect(bodyRoutes.length).toBeGreaterThan(5);
      const before = await sessionCount();
      for (const route of bodyRoutes) {
        const name = `${route.method} ${route.path}`;
        const body = JSON.stringify(protectedRouteExpectations[name]?.body?.('boundary') ?? { label: 'x' });
        const path = route.path.replace(':id', missingId);
        const variants: Array<Array<readonly [string, string]>> = [
          ...refusedContentTypes.map((type) => [['Content-Type', type] as const]),
          [], // a body without any Content-Type
        ];
        for (const contentType of variants) {
          const what = `${name} with ${JSON.stringify(contentType)}`;
          const response = await rawHttp(
            url,
            rawRequest(
              `${route.method} ${path} HTTP/1.1`,
              [
                ['Host', 'localhost'],
                ['Authorization', `Bearer ${admin.key}`],
                ...contentType,
                ['Content-Length', String(Buffer.byteLength(body))],
              ],
              body,
            ),
          );
          const message = path.startsWith('/v1/chat/')
            ? expectOpenAIError(response, 415, what)
            : expectApiError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', what).message;
          expect(message, what).toContain('Content-Type: application/json');
        }
      }
      expect(await sessionCount()).toBe(before);
      expect(test.emulator.requests).toEqual([]);
    });

    it('every route that takes a body refuses a value nested more than 100 levels with a 400 naming where, before doing anything', async () => {
      const bodyRoutes = test.api.app
        .get(RouteInventory)
        .routes()
        .filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method));
      const before = await sessionCount();
      let deep: unknown = [];
      for (let level = 1; level < 110; level++) deep = [deep];
      for (const route of bodyRoutes) {
        const name = `${route.method} ${route.path}`;
        const valid = protectedRouteExpectations[name]?.body?.('boundary') ?? { label: 'x' };
        // Too deep in a field the route knows, and in one it does not: neither reaches validation.
        for (const body of [{ ...valid, metadata: deep }, { deep: { inside: deep } }]) {
          const response = await test.request({
            method: route.method as 'POST',
            url: route.path.replace(':id', missingId),
            key: admin.key,
            body,
          });
          const what = `${name} with ${Object.keys(body).join(', ')}`;
          const message = route.path.startsWith('/v1/chat/')
            ? expectOpenAIError(response, 400, what)
            : expectApiError(response, 400, 'VALIDATION_FAILED', what).message;
          expect(message, what).toMatch(
            /^body\.(metadata|deep\.inside)(\.0)+…: arrays and objects are nested more than 100 levels deep/,
          );
        }
      }
      expect(await sessionCount()).toBe(before);
      expect(test.emulator.requests).toEqual([]);
    });

    it('a JSON body sent as text/plain is 415 naming the expected type, not a validation error', async () => {
      const response = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: admin.key,
        headers: { 'content-type': 'text/plain' },
        body: '{"label":"x"}',
      });
      const error = expectApiError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', 'text/plain');
      expect(error.message).toBe(
        'Content-Type text/plain is not accepted. The body must be JSON sent with Content-Type: application/json (UTF-8)',
      );
    });

    it('accepts application/json in any letter case, with or without charset=utf-8', async () => {
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'Application/JSON;charset="UTF-8"',
        'application/json; charset=utf8',
      ]) {
        const response = await test.request({
          method: 'POST',
          url: '/v1/sessions',
          key: admin.key,
          headers: { 'content-type': contentType },
          body: '{"label":"json"}',
        });
        expect(response.statusCode, contentType).toBe(201);
      }
    });

    it('any media type other than application/json is 415 (property)', async () => {
      const token = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,15}$/);
      await fc.assert(
        fc.asyncProperty(token, token, async (type, subtype) => {
          fc.pre(`${type}/${subtype}` !== 'application/json');
          const response = await test.request({
            method: 'POST',
            url: '/v1/sessions',
            key: admin.key,
            headers: { 'content-type': `${type}/${subtype}` },
            body: '{"label":"property"}',
          });
          expect(response.statusCode, `${type}/${subtype}`).toBe(415);
        }),
        { numRuns: 60 },
      );
    });

    it('errors from the HTTP layer itself come in the API error body, over a real socket', async () => {
      const before = await sessionCount();
      const get = (target: string, headers: Array<readonly [string, string]> = []) =>
        rawHttp(url, rawRequest(`GET ${target} HTTP/1.1`, [['Host', 'localhost'], ...headers]));
      const post = (path: string, headers: Array<readonly [string, string]>, body: string) =>
        rawHttp(
          url,
          rawRequest(
            `POST ${path} HTTP/1.1`,
            [['Host', 'localhost'], ['Authorization', `Bearer ${admin.key}`], ...headers],
            body,
          ),
        );

      expectApiError(
        await get(`/v1/sessions?q=${'a'.repeat(20_000)}`),
        431,
        'HEADERS_TOO_LARGE',
        '20 KB URL',
      );
      expectApiError(
        await get('/v1/sessions', [['X-Padding', 'b'.repeat(20_000)]]),
        431,
        'HEADERS_TOO_LARGE',
        '20 KB header',
      );
      const smuggled = await post(
        '/v1/sessions',
        [
          ['Content-Type', 'application/json'],
          ['Content-Length', '4'],
          ['Transfer-Encoding', 'chunked'],
        ],
        '0\r\n\r\n',
      );
      expect(expectApiError(smuggled, 400, 'VALIDATION_FAILED', 'CL + TE').message).toContain(
        'Transfer-Encoding',
      );
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Transfer-Encoding', 'chunked'],
          ],
          'zz\r\n',
        ),
        400,
        'VALIDATION_FAILED',
        'bad chunk size',
      );
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', 'ten'],
          ],
          '{}',
        ),
        400,
        'VALIDATION_FAILED',
        'bad Content-Length',
      );
      expectApiError(
        await rawHttp(url, rawRequest('BREW /v1/sessions HTTP/1.1', [['Host', 'localhost']])),
        400,
        'VALIDATION_FAILED',
        'unknown method',
      );
      const malformed = await post(
        '/v1/sessions',
        [
          ['Content-Type', 'application/json'],
          ['Content-Length', '9'],
        ],
        '{"label":',
      );
      expect(expectApiError(malformed, 400, 'VALIDATION_FAILED', 'malformed JSON').message).toMatch(
        /^body: not valid JSON/,
      );
      const poisoned = '{"__proto__":{"admin":true}}';
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', String(poisoned.length)],
          ],
          poisoned,
        ),
        400,
        'VALIDATION_FAILED',
        '__proto__',
      );
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', '0'],
          ],
          '',
        ),
        400,
        'VALIDATION_FAILED',
        'empty JSON body',
      );
      const large = JSON.stringify({ label: 'x', systemPrompt: 'y'.repeat(bodyLimitBytes) });
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', String(large.length)],
          ],
          large,
        ),
        413,
        'PAYLOAD_TOO_LARGE',
        'large body',
      );
      const chunk = large.length.toString(16);
      expectApiError(
        await post(
          '/v1/sessions',
          [
            ['Content-Type', 'application/json'],
            ['Transfer-Encoding', 'chunked'],
          ],
          `${chunk}\r\n${large}\r\n0\r\n\r\n`,
        ),
        413,
        'PAYLOAD_TOO_LARGE',
        'large chunked body',
      );
      // Node would answer these itself with an empty body: a missing Host (HTTP/1.1 needs exactly
      // one), and an Expect other than 100-continue (ignored, as RFC 9110 allows: answered as usual).
      const noHost = await rawHttp(url, 'GET /v1/sessions HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(expectApiError(noHost, 400, 'VALIDATION_FAILED', 'no Host').message).toContain(
        'The Host header is missing',
      );
      const twoHosts = await rawHttp(
        url,
        rawRequest('GET /v1/sessions HTTP/1.1', [
          ['Host', 'localhost'],
          ['Host', 'other.example'],
        ]),
      );
      expect(expectApiError(twoHosts, 400, 'VALIDATION_FAILED', 'two Host headers').message).toContain(
        '2 Host headers',
      );
      expectApiError(
        await get('/v1/sessions', [['Expect', 'something-else']]),
        401,
        'UNAUTHENTICATED',
        'unknown expectation',
      );
      const expected = await get('/v1/sessions', [
        ['Expect', 'something-else'],
        ['Authorization', `Bearer ${admin.key}`],
      ]);
      expect(expected.status).toBe(200);
      expect(expected.json<{ items: unknown[] }>().items).toBeInstanceOf(Array);
      expectApiError(await get('/v1/nothing-here'), 404, 'ROUTE_NOT_FOUND', 'unknown route');
      expectApiError(await get('/v1/%zz'), 400, 'VALIDATION_FAILED', 'bad percent-encoding');
      for (const [method, path, allow] of [
        ['PUT', '/v1/sessions', 'GET, HEAD, POST'],
        ['DELETE', '/v1/sessions', 'GET, HEAD, POST'],
        ['OPTIONS', `/v1/sessions/${missingId}`, 'DELETE, GET, HEAD, PATCH'],
        ['GET', `/v1/sessions/${missingId}/close`, 'POST'],
        ['POST', '/healthz', 'GET, HEAD'],
      ] as const) {
        const response = await rawHttp(
          url,
          rawRequest(`${method} ${path} HTTP/1.1`, [['Host', 'localhost']]),
        );
        expectApiError(response, 405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
        expect(response.headers['allow'], `${method} ${path}`).toBe(allow);
      }
      expect(await sessionCount()).toBe(before);
    });

    it('the OpenAI-compatible paths answer the same HTTP-layer errors in OpenAI’s error body', async () => {
      const request = (line: string, headers: Array<readonly [string, string]> = [], body = '') =>
        rawHttp(
          url,
          rawRequest(
            line,
            [['Host', 'localhost'], ['Authorization', `Bearer ${admin.key}`], ...headers],
            body,
          ),
        );
      expectOpenAIError(await request(`GET /v1/models?q=${'a'.repeat(20_000)} HTTP/1.1`), 431, '20 KB URL');
      expectOpenAIError(
        await request(
          'POST /v1/chat/completions HTTP/1.1',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', '4'],
            ['Transfer-Encoding', 'chunked'],
          ],
          '0\r\n\r\n',
        ),
        400,
        'CL + TE',
      );
      expectOpenAIError(
        await request(
          'POST /v1/chat/completions HTTP/1.1',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', '2'],
          ],
          '{x',
        ),
        400,
        'malformed JSON',
      );
      const large = JSON.stringify({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'z'.repeat(bodyLimitBytes) }],
      });
      expectOpenAIError(
        await request(
          'POST /v1/chat/completions HTTP/1.1',
          [
            ['Content-Type', 'application/json'],
            ['Content-Length', String(large.length)],
          ],
          large,
        ),
        413,
        'large body',
      );
      expectOpenAIError(
        await rawHttp(
          url,
          'POST /v1/chat/completions HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
        ),
        400,
        'no Host',
      );
      expectOpenAIError(await request('GET /v1/models/gpt-test HTTP/1.1'), 404, 'unknown model route');
      const wrongMethod = await request('GET /v1/chat/completions HTTP/1.1');
      expectOpenAIError(wrongMethod, 405, 'GET chat/completions');
      expect(wrongMethod.headers['allow']).toBe('POST');
      expect(test.emulator.requests).toEqual([]);
    });
  });

  describe(`while the server drains (${engine})`, () => {
    it('a request arriving on an open connection after close() began gets 503 in the API error body', async () => {
      const draining = await startTestApi(engine);
      let closed: Promise<void> | undefined;
      const socket = new net.Socket();
      try {
        const key = await issueUserKey(
          draining.api.repositories,
          await createLocalUser(draining.api.repositories, 'alice'),
        );
        const url = new URL(await draining.api.listen());
        socket.connect(Number(url.port), '127.0.0.1');
        await once(socket, 'connect');
        const received: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => received.push(chunk));
        const body = '{"label":"first"}';
        const head = (path: string, contentLength: number) =>
          `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;
        // The first request's body is held back: the connection is busy, so closing waits for it.
        // (It goes to no route: Nest tears its modules down before the server, see the report.)
        socket.write(`${head('/v1/held-open', body.length)}${body.slice(0, 4)}`);
        await until(() => draining.logs.text().includes('incoming request'));
        closed = draining.api.app.close();
        const server = draining.api.app.getHttpServer();
        await until(() => !server.listening);
        // The rest of the first request, and a second one behind it on the same connection.
        socket.write(`${body.slice(4)}${head('/v1/sessions', 2)}{}`);
        await once(socket, 'close');
        const answers = Buffer.concat(received).toString('utf8');
        expect(answers).toMatch(/^HTTP\/1\.1 404 /);
        const second = answers.slice(answers.indexOf('HTTP/1.1', 5));
        expect(second).toMatch(/^HTTP\/1\.1 503 /);
        expect(second.toLowerCase()).toContain('connection: close');
        const error = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as {
          error: { code: string; requestId: string };
        };
        expect(error.error.code).toBe('NOT_READY');
        expect(error.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      } finally {
        socket.destroy();
        await closed;
        await draining.emulator.close();
        await draining.database.cleanup();
      }
    });
  });

  describe(`dev mode accepts only this machine’s own requests (${engine})`, () => {
    let test: TestApi;
    let url: string;

    beforeAll(async () => {
      test = await startTestApi(engine, { AGENTDESK_DEV_MODE: 'true' });
      url = await test.api.listen();
    });
    afterAll(async () => {
      await test.close();
    });

    const devRequest = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET', payload?: string) =>
      test.api.app.inject({
        method,
        url: '/v1/sessions',
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
    const devSessions = async () =>
      (await test.api.repositories.sessions.listAllSessionsForAdmin({}, { limit: 100 })).items.length;

    it('refuses a cross-origin form post (no key) before it creates anything or calls a model', async () => {
      const before = await devSessions();
      const formPost = await devRequest(
        {
          host: 'localhost:3000',
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        'POST',
        'label=x',
      );
      expect(expectApiError(formPost, 403, 'FORBIDDEN', 'form post').message).toContain(
        'Origin "https://evil.example"',
      );
      // Even a form post with no Origin at all (some browsers omit it) is not a JSON body.
      const noOrigin = await devRequest(
        { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        'POST',
        'label=x',
      );
      expectApiError(noOrigin, 415, 'UNSUPPORTED_MEDIA_TYPE', 'form without Origin');
      const textPlain = await devRequest(
        { host: 'localhost', 'content-type': 'text/plain' },
        'POST',
        '{"label":"x"}',
      );
      expectApiError(textPlain, 415, 'UNSUPPORTED_MEDIA_TYPE', 'text/plain without Origin');
      expect(await devSessions()).toBe(before);
      expect(test.emulator.requests).toEqual([]);
    });

    it('refuses every Origin that is not on this machine, and Sec-Fetch-Site: cross-site without one', async () => {
      for (const origin of [
        'https://evil.example',
        'null',
        'http://localhost.evil.example',
        'http://127.0.0.1.nip.io',
        'http://evil.example:3000',
        'http://localhost@evil.example',
        'file://',
        'http://localhost/path',
        'chrome-extension://abc',
      ]) {
        const response = await devRequest({ host: 'localhost', origin });
        expectApiError(response, 403, 'FORBIDDEN', `Origin ${origin}`);
      }
      expectApiError(
        await devRequest({ host: 'localhost', 'sec-fetch-site': 'cross-site' }),
        403,
        'FORBIDDEN',
        'cross-site',
      );
      for (const origin of [
        'http://localhost:5173',
        'http://127.0.0.1:3000',
        'http://[::1]:8080',
        'https://LOCALHOST',
      ]) {
        expect(
          (await devRequest({ host: 'localhost', origin, 'sec-fetch-site': 'cross-site' })).statusCode,
          origin,
        ).toBe(200);
      }
      for (const site of ['same-origin', 'same-site', 'none']) {
        expect((await devRequest({ host: 'localhost', 'sec-fetch-site': site })).statusCode, site).toBe(200);
      }
    });

    it('answers only requests addressed to a loopback name (DNS rebinding): other Host names get 403 and no data', async () => {
      await devRequest(
        { host: 'localhost', 'content-type': 'application/json' },
        'POST',
        '{"label":"private"}',
      );
      for (const host of [
        'rebind.evil.example',
        'rebind.evil.example:3000',
        'localhost.evil.example',
        '127.0.0.1.nip.io',
        'localhost.',
        'evil@localhost',
        '10.0.0.5',
        '[::2]:3000',
        'localhost:3000:1',
      ]) {
        const response = await devRequest({ host });
        expectApiError(response, 403, 'FORBIDDEN', `Host ${host}`);
        expect(response.body, host).not.toContain('private');
      }
      for (const host of [
        'localhost',
        'LOCALHOST:3000',
        '127.0.0.1',
        '127.1.2.3:8080',
        '[::1]',
        '[::1]:3000',
      ]) {
        expect((await devRequest({ host })).statusCode, host).toBe(200);
      }
      // No Host (HTTP/1.0) and two Host headers, over a real socket.
      expectApiError(await rawHttp(url, 'GET /v1/sessions HTTP/1.0\r\n\r\n'), 403, 'FORBIDDEN', 'no Host');
      expectApiError(
        await rawHttp(
          url,
          rawRequest('GET /v1/sessions HTTP/1.1', [
            ['Host', 'localhost'],
            ['Host', 'rebind.evil.example'],
          ]),
        ),
        403,
        'FORBIDDEN',
        'two Host headers',
      );
    });

    it('outside dev mode, Host and Origin are not restricted (keys protect every route)', async () => {
      const normal = await startTestApi(engine);
      try {
        const key = await issueUserKey(
          normal.api.repositories,
          await createLocalUser(normal.api.repositories, 'alice'),
        );
        const response = await normal.request({
          method: 'GET',
          url: '/v1/sessions',
          key: key.key,
          headers: { host: 'api.example.com', origin: 'https://portal.example.com' },
        });
        expect(response.statusCode).toBe(200);
      } finally {
        await normal.close();
      }
    });
  });
}

/** Waits for a condition the test cannot await directly (a log line, a server state), polling. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}
