import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issuePortalKey, issueUserKey } from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * Text PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates) and bytes that are not UTF-8 get
 * the same 400 on both engines, naming the field and the problem — never a 500 on one engine and a
 * silent U+FFFD on the other. Bodies are written as raw JSON text, so `\ud800` arrives as the
 * escape a client writes, and raw bytes arrive as bytes.
 */

const surrogate = 'contains an unpaired UTF-16 surrogate';
const nul = 'contains a NUL character (U+0000), which cannot be stored';
const notUtf8 = 'body: not valid UTF-8';
const queryNotUtf8 = 'has percent-escapes that are not UTF-8';
const invalidCursor = 'cursor: not a cursor this API returned';

/** A JSON string literal holding `inner` exactly as written (escapes stay escapes). */
const literal = (inner: string): string => `"${inner}"`;

// Spellings of the same defect: escaped lone halves in either case, a reversed pair, a half at the end, NUL.
const escapedSpellings: ReadonlyArray<[string, string, string]> = [
  ['a lone low surrogate', 'lone \\udc00 surrogate', `${surrogate} at index 5 (U+DC00)`],
  ['a lone high surrogate in upper case', 'x\\uD800', `${surrogate} at index 1 (U+D800)`],
  ['a reversed pair', '\\ude00\\ud83d', `${surrogate} at index 0 (U+DE00)`],
  ['a high surrogate at the end', 'ok \\ud83d', `${surrogate} at index 3 (U+D83D)`],
  ['a NUL', 'a\\u0000b', `${nul} (at index 1)`],
];

// Bytes that are not UTF-8: an encoded surrogate (CESU-8), an overlong NUL, a Latin-1 byte, a cut sequence.
const rawByteSpellings: ReadonlyArray<[string, number[]]> = [
  ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['an overlong NUL (C0 80)', [0xc0, 0x80]],
  ['a Latin-1 é (E9)', [0xe9]],
  ['a cut 3-byte sequence (E2 82)', [0xe2, 0x82]],
];

interface Write {
  readonly name: string;
  readonly method: 'POST' | 'PATCH';
  readonly url: (session: Session) => string;
  readonly key: 'user' | 'admin';
  /** The body with the text at `$`, and the field path the answer must name. */
  readonly body: (text: string) => string;
  readonly field: string;
  /** False when the answer does not carry the field back (checked only for a 2xx then). */
  readonly echoed?: boolean;
}

const writes: readonly Write[] = [
  {
    name: 'session label',
    method: 'POST',
    url: () => '/v1/sessions',
    key: 'user',
    body: (text) => `{"label":${text}}`,
    field: 'body.label',
  },
  {
    name: 'session system prompt',
    method: 'POST',
    url: () => '/v1/sessions',
    key: 'user',
    body: (text) => `{"systemPrompt":${text}}`,
    field: 'body.systemPrompt',
  },
  {
    name: 'metadata value',
    method: 'POST',
    url: () => '/v1/sessions',
    key: 'user',
    body: (text) => `{"metadata":{"note":${text}}}`,
    field: 'body.metadata.note',
  },
  {
    name: 'nested metadata array item',
    method: 'PATCH',
    url: (session) => `/v1/sessions/${session.id}`,
    key: 'user',
    body: (text) => `{"metadata":{"tags":["fine",{"deep":${text}}]}}`,
    field: 'body.metadata.tags.1.deep',
  },
  {
    name: 'metadata key',
    method: 'POST',
    url: () => '/v1/sessions',
    key: 'user',
    body: (text) => `{"metadata":{${text}:1}}`,
    field: 'body.metadata: the key',
  },
  {
    name: 'renamed label',
    method: 'PATCH',
    url: (session) => `/v1/sessions/${session.id}`,
    key: 'user',
    body: (text) => `{"label":${text}}`,
    field: 'body.label',
  },
  {
    name: 'message content',
    method: 'POST',
    url: (session) => `/v1/sessions/${session.id}/messages`,
    key: 'user',
    body: (text) => `{"content":${text}}`,
    field: 'body.content',
  },
  {
    name: 'message content part',
    method: 'POST',
    url: (session) => `/v1/sessions/${session.id}/messages`,
    key: 'user',
    body: (text) => `{"content":[{"type":"text","text":"ok"},{"type":"text","text":${text}}]}`,
    field: 'body.content.1.text',
  },
  {
    name: 'response format schema description',
    method: 'POST',
    url: (session) => `/v1/sessions/${session.id}/messages`,
    key: 'user',
    body: (text) =>
      `{"content":"hi","responseFormat":{"type":"json_schema","schema":{"type":"object","description":${text}}}}`,
    field: 'body.responseFormat.schema.description',
    echoed: false,
  },
  {
    name: 'API key label',
    method: 'POST',
    url: () => '/v1/admin/api-keys',
    key: 'admin',
    body: (text) => `{"role":"user","label":${text},"externalId":"someone"}`,
    field: 'body.label',
  },
  {
    name: 'API key external id',
    method: 'POST',
    url: () => '/v1/admin/api-keys',
    key: 'admin',
    body: (text) => `{"role":"user","label":"k","externalId":${text}}`,
    field: 'body.externalId',
    echoed: false,
  },
  {
    name: 'portal id',
    method: 'POST',
    url: () => '/v1/admin/api-keys',
    key: 'admin',
    body: (text) => `{"role":"portal","label":"k","portalId":${text}}`,
    field: 'body.portalId',
  },
  {
    name: 'lab prompt',
    method: 'POST',
    url: () => '/v1/admin/structured-output/runs',
    key: 'admin',
    body: (text) =>
      `{"name":"n","schema":{"type":"object"},"prompt":${text},"targets":[{"model":"gpt-4o-mini"}]}`,
    field: 'body.prompt',
  },
  {
    name: 'lab schema enum value',
    method: 'POST',
    url: () => '/v1/admin/structured-output/runs',
    key: 'admin',
    body: (text) =>
      `{"name":"n","schema":{"type":"string","enum":["a",${text}]},"prompt":"p","targets":[{"model":"gpt-4o-mini"}]}`,
    field: 'body.schema.enum.1',
  },
];

// Reads and filters: query strings and cursors reach the database as parameters.
const reads: ReadonlyArray<[string, string, 'user' | 'admin', string]> = [
  ['session label filter', '/v1/sessions', 'user', 'label'],
  ['admin session owner filter', '/v1/admin/sessions', 'admin', 'userId'],
  ['audit actor filter', '/v1/admin/audit', 'admin', 'actorId'],
  ['audit action filter', '/v1/admin/audit', 'admin', 'action'],
  ['user search', '/v1/admin/users', 'admin', 'search'],
  ['user portal filter', '/v1/admin/users', 'admin', 'portalId'],
];

const cursorRoutes: ReadonlyArray<[string, (session: Session) => string, 'user' | 'admin']> = [
  ['sessions', () => '/v1/sessions', 'user'],
  ['admin sessions', () => '/v1/admin/sessions', 'admin'],
  ['admin audit', () => '/v1/admin/audit', 'admin'],
  ['admin users', () => '/v1/admin/users', 'admin'],
  ['api keys', () => '/v1/admin/api-keys', 'admin'],
  ['lab runs', () => '/v1/admin/structured-output/runs', 'admin'],
  ['messages', (session) => `/v1/sessions/${session.id}/messages`, 'user'],
  ['admin transcript', (session) => `/v1/admin/sessions/${session.id}/messages?reason=qa`, 'admin'],
];

const cursorOf = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

// Hand-made cursors: NUL or an escaped surrogate in the id or the tag, bytes that are not UTF-8.
const badCursors: ReadonlyArray<[string, string]> = [
  ['a NUL id', cursorOf('["t",1,"\\u0000"]')],
  ['a NUL inside an id', cursorOf('["t",1770000000000,"01a2\\u0000"]')],
  ['an escaped lone surrogate id', cursorOf('["t",1,"\\ud800"]')],
  ['a NUL sequence tag', cursorOf('["\\u0000",1]')],
  [
    'bytes that are not UTF-8',
    Buffer.from([0x5b, 0x22, 0x74, 0x22, 0x2c, 0x31, 0x2c, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]).toString(
      'base64url',
    ),
  ],
];

export function describeStoredText(engine: Engine): void {
  describe(`text no engine stores unchanged is refused alike (${engine})`, () => {
    let test: TestApi;
    let keys: Record<'user' | 'admin', string>;
    let session: Session;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const alice = await createLocalUser(test.api.repositories, 'alice');
      keys = {
        user: (await issueUserKey(test.api.repositories, alice)).key,
        admin: (
          await issueUserKey(
            test.api.repositories,
            await createLocalUser(test.api.repositories, 'root'),
            'admin',
          )
        ).key,
      };
      session = await createSession(test.api.repositories, alice, 'target', 2);
    });
    afterAll(async () => {
      await test?.close();
    });
    beforeEach(() => test.emulator.reset());

    function send(
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      key: 'user' | 'admin',
      payload?: string | Buffer,
    ): Promise<InjectResponse> {
      return test.api.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${keys[key]}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
    }

    function expectRefused(response: InjectResponse, ...fragments: string[]): void {
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ error: { code: string; message: string } }>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      for (const fragment of fragments) expect(body.error.message).toContain(fragment);
    }

    describe.each(writes)('$name', (write) => {
      it.each(escapedSpellings)(
        'refuses %s written as a JSON escape, naming the field',
        async (_name, text, problem) => {
          const response = await send(write.method, write.url(session), write.key, write.body(literal(text)));
          expectRefused(response, write.field, problem);
          expect(test.emulator.requests).toHaveLength(0);
        },
      );

      it.each(rawByteSpellings)('refuses %s sent as raw bytes', async (_name, bytes) => {
        const [before, after] = write.body('"\u0001"').split('\u0001') as [string, string];
        const payload = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
        expectRefused(await send(write.method, write.url(session), write.key, payload), notUtf8);
        expect(test.emulator.requests).toHaveLength(0);
      });

      it('stores a valid pair (emoji) and U+FFFD exactly as sent', async () => {
        const response = await send(
          write.method,
          write.url(session),
          write.key,
          write.body(literal('ok \\ud83d\\ude00 \\ufffd é')),
        );
        expect(response.statusCode, response.body).toBeLessThan(300);
        if (write.echoed !== false) expect(response.body).toContain('ok 😀 \ufffd é');
      });
    });

    it('round-trips a metadata key and value with emoji exactly, read back from the database', async () => {
      const created = await send(
        'POST',
        '/v1/sessions',
        'user',
        '{"label":"😀","metadata":{"k😀":"v\\ud83d\\ude00"}}',
      );
      expect(created.statusCode).toBe(201);
      const read = await send('GET', `/v1/sessions/${created.json<{ id: string }>().id}`, 'user');
      expect(read.json()).toMatchObject({ label: '😀', metadata: { 'k😀': 'v😀' } });
    });

    describe.each(reads)('%s', (_name, path, key, parameter) => {
      it.each([
        ['an encoded surrogate', '%ED%A0%80', queryNotUtf8],
        ['an encoded low surrogate mid-text', 'ab%ED%B0%80cd', queryNotUtf8],
        ['an overlong NUL', '%C0%80', queryNotUtf8],
        ['a Latin-1 byte', 'caf%E9', queryNotUtf8],
        ['a NUL', 'a%00b', nul],
      ])('refuses %s in the query string, naming the parameter', async (_spelling, value, problem) => {
        expectRefused(await send('GET', `${path}?${parameter}=${value}`, key), `query.${parameter}`, problem);
      });

      it('accepts encoded emoji and a literal % (no escape), and answers 200', async () => {
        expect((await send('GET', `${path}?${parameter}=%F0%9F%98%80`, key)).statusCode).toBe(200);
        expect((await send('GET', `${path}?${parameter}=100%`, key)).statusCode).toBe(200);
      });
    });

    describe.each(cursorRoutes)('%s cursor', (_name, url, key) => {
      it.each(badCursors)('refuses %s with the invalid-cursor 400', async (_spelling, cursor) => {
        const target = url(session);
        const separator = target.includes('?') ? '&' : '?';
        expectRefused(await send('GET', `${target}${separator}cursor=${cursor}`, key), invalidCursor);
      });
    });

    it('refuses NUL in an audit reason, in the header and the query string', async () => {
      const viaQuery = await send('GET', `/v1/admin/sessions/${session.id}?reason=a%00b`, 'admin');
      expectRefused(viaQuery, 'query.reason', nul);
      const viaHeader = await test.api.app.inject({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}`,
        headers: { authorization: `Bearer ${keys.admin}`, 'x-audit-reason': 'a\u0000b' },
      });
      expectRefused(viaHeader, 'header.x-audit-reason', nul);
    });

    // Node reads header bytes as Latin-1: UTF-8 "é" arrives as "Ã©". Stored headers take printable ASCII only.
    it.each([
      ['UTF-8 bytes read as Latin-1', Buffer.from('zoé', 'utf8').toString('latin1')],
      ['a Latin-1 character', 'zo\u00e9'],
      ['an unpaired surrogate', 'zo\ud800'],
      ['a NUL', 'zo\u0000'],
    ])('refuses %s in X-End-User-Id and X-Audit-Reason, naming the header', async (_name, value) => {
      const portal = await issuePortalKey(test.api.repositories, 'shop', true);
      const asEndUser = await test.api.app.inject({
        method: 'POST',
        url: '/v1/sessions',
        headers: {
          authorization: `Bearer ${portal.key}`,
          'x-end-user-id': value,
          'content-type': 'application/json',
        },
        payload: '{"label":"x"}',
      });
      expectRefused(asEndUser, 'header.x-end-user-id');
      const users = await test.api.app.inject({
        method: 'GET',
        url: '/v1/admin/users?portalId=shop',
        headers: { authorization: `Bearer ${keys.admin}` },
      });
      expect(users.json<{ items: unknown[] }>().items).toEqual([]);
      const reason = await test.api.app.inject({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}`,
        headers: { authorization: `Bearer ${keys.admin}`, 'x-audit-reason': value },
      });
      expectRefused(reason, 'header.x-audit-reason');
    });

    it('refuses NUL in a path parameter', async () => {
      expectRefused(await send('GET', '/v1/sessions/a%00b', 'user'), 'path.id');
    });

    describe('the OpenAI-compatible route (nothing stored, the same rule, OpenAI’s error shape)', () => {
      const completion = (fragment: string) => `{"model":"gpt-4o-mini","messages":[${fragment}]}`;

      it.each([
        [
          'user content',
          completion(`{"role":"user","content":${literal('lone \\udc00')}}`),
          'messages[0].content',
          surrogate,
        ],
        [
          'a system text part',
          completion(
            `{"role":"system","content":[{"type":"text","text":${literal('\\u0000')}}]},{"role":"user","content":"hi"}`,
          ),
          'messages[0].content[0].text',
          nul,
        ],
        [
          'tool call arguments',
          completion(
            `{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${literal('{\\"a\\":\\"\\ud800\\"}')}}}]},{"role":"tool","tool_call_id":"c1","content":"r"}`,
          ),
          'messages[1].tool_calls[0].function.arguments',
          surrogate,
        ],
        [
          'a tool description',
          `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","description":${literal('d\\udfff')}}}]}`,
          'tools[0].function.description',
          surrogate,
        ],
        [
          'a schema property key',
          `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":{"type":"object","properties":{${literal('k\\u0000')}:{"type":"string"}}}}}}`,
          'response_format.json_schema.schema.properties',
          nul,
        ],
      ])('refuses NUL or a lone surrogate in %s, with the param', async (_name, payload, param, problem) => {
        const response = await send('POST', '/v1/chat/completions', 'user', payload);
        expect(response.statusCode, response.body).toBe(400);
        const error = response.json<{ error: { message: string; param: string | null; type: string } }>()
          .error;
        expect(error).toMatchObject({ param, type: 'invalid_request_error' });
        expect(error.message).toContain(problem);
        expect(test.emulator.requests).toHaveLength(0);
      });

      it('refuses a body that is not UTF-8', async () => {
        const payload = Buffer.concat([
          Buffer.from('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"'),
          Buffer.from([0xed, 0xa0, 0x80]),
          Buffer.from('"}]}'),
        ]);
        const response = await send('POST', '/v1/chat/completions', 'user', payload);
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain('not valid UTF-8');
      });

      it('passes emoji to the provider exactly as sent', async () => {
        const response = await send(
          'POST',
          '/v1/chat/completions',
          'user',
          completion(`{"role":"user","content":${literal('hi \\ud83d\\ude00')}}`),
        );
        expect(response.statusCode).toBe(200);
        const sent = test.emulator.lastRequest('openai')?.body as { messages: Array<{ content: unknown }> };
        expect(sent.messages.at(-1)?.content).toBe('hi 😀');
      });
    });
  });
}
