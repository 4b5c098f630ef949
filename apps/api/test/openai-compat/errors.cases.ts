import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { providerModels, type CompatContext } from './compat-context';

const hello = [{ role: 'user' as const, content: 'Hello' }];

/** Errors in OpenAI's shape, so each SDK raises its usual error class. */
export function describeErrorCases(context: () => CompatContext): void {
  describe('errors, as OpenAI clients expect them', () => {
    const rawPost = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${context().baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${context().key}`, 'content-type': 'application/json', ...headers },
        body,
      });

    it('refuses unknown request fields with BadRequestError, OpenAI’s wording and the request id', async () => {
      const error = await context()
        .openai()
        .chat.completions.create({ model: 'gpt-test', messages: hello, foo: 1 } as never)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const badRequest = error as InstanceType<typeof OpenAI.BadRequestError>;
      expect(badRequest.message).toBe('400 Unrecognized request argument supplied: foo');
      expect(badRequest.error).toEqual({
        message: 'Unrecognized request argument supplied: foo',
        type: 'invalid_request_error',
        param: null,
        code: 'unrecognized_argument',
      });
      expect(badRequest.requestID).toBeTruthy();
      // Nothing reached a provider.
      expect(context().test.emulator.requests).toEqual([]);
    });

    it('names missing and invalid parameters', async () => {
      const missing = await context()
        .openai()
        .chat.completions.create({ model: 'gpt-test' } as never)
        .catch((caught: unknown) => caught);
      expect(missing).toBeInstanceOf(OpenAI.BadRequestError);
      expect((missing as APIError).error).toMatchObject({
        message: "Missing required parameter: 'messages'.",
        param: 'messages',
      });
      const invalid = await context()
        .openai()
        .chat.completions.create({ model: 'gpt-test', messages: hello, n: 3 })
        .catch((caught: unknown) => caught);
      expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
      expect((invalid as APIError).param).toBe('n');
    });

    it('answers malformed JSON and other content types in OpenAI’s shape too', async () => {
      const malformed = await rawPost('{"model":');
      expect(malformed.status).toBe(400);
      const malformedBody = (await malformed.json()) as { error: { message: string } };
      expect(malformedBody).toMatchObject({
        error: { type: 'invalid_request_error', param: null, code: null },
      });
      expect(malformedBody.error.message).toMatch(/^body: not valid JSON/);
      // Only JSON is a body here: every other type is 415 naming the expected one, before any parsing.
      for (const contentType of [
        'application/xml',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'application/json; charset=iso-8859-1',
      ]) {
        const refused = await rawPost('{"model":"gpt-test","messages":[]}', { 'content-type': contentType });
        expect(refused.status, contentType).toBe(415);
        const body = (await refused.json()) as { error: { message: string } };
        expect(body, contentType).toMatchObject({ error: { type: 'invalid_request_error', param: null } });
        expect(body.error.message, contentType).toContain('Content-Type: application/json');
      }
      expect(context().test.emulator.requests).toEqual([]);
    });

    it('answers an unknown model with NotFoundError (model_not_found)', async () => {
      const error = await context()
        .openai()
        .chat.completions.create({ model: 'llama-nobody-serves', messages: hello })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as APIError).code).toBe('model_not_found');
    });

    it('answers a schema the provider cannot take with BadRequestError on response_format', async () => {
      // Anthropic takes no recursion; it is unrolled, but a link every level requires cannot be cut.
      const error = await context()
        .openai()
        .chat.completions.create({
          model: 'claude-test',
          messages: hello,
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: 'chain',
              schema: { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] },
            },
          },
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as APIError).error).toMatchObject({ param: 'response_format', code: 'invalid_schema' });
    });

    it('answers bad keys with AuthenticationError, one body for unknown, revoked, malformed and missing keys', async () => {
      const { test, baseURL } = context();
      const owner = await createLocalUser(test.api.repositories, `revoked-${Date.now()}`);
      const revoked = await issueUserKey(test.api.repositories, owner);
      await test.api.repositories.apiKeys.revoke(revoked.stored.id);
      const unknown = `${context().key.slice(0, -4)}abcd`;
      for (const apiKey of [unknown, revoked.key, 'not-a-key']) {
        const error = await context()
          .openai({ apiKey })
          .chat.completions.create({ model: 'gpt-test', messages: hello })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      }
      const bodies = new Set<string>();
      const credentials: Array<Record<string, string>> = [
        { authorization: `Bearer ${unknown}` },
        { authorization: `Bearer ${revoked.key}` },
        { 'x-api-key': 'garbage' },
        {},
      ];
      for (const headers of credentials) {
        for (const [method, path] of [
          ['POST', '/chat/completions'],
          ['GET', '/models'],
        ] as const) {
          const response = await fetch(`${baseURL}${path}`, {
            method,
            headers: { ...headers, ...(method === 'POST' && { 'content-type': 'application/json' }) },
            ...(method === 'POST' && { body: JSON.stringify({ model: 'gpt-test', messages: hello }) }),
          });
          expect(response.status).toBe(401);
          bodies.add(await response.text());
        }
      }
      expect([...bodies]).toHaveLength(1);
      expect(JSON.parse([...bodies][0]!)).toMatchObject({
        error: { type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      });
      expect(test.emulator.requests).toEqual([]);
    });

    it('answers a role without the scope with PermissionDeniedError', async () => {
      const { test } = context();
      const viewer = await createLocalUser(test.api.repositories, `viewer-${Date.now()}`);
      const { key } = await issueUserKey(test.api.repositories, viewer, 'viewer');
      const error = await context()
        .openai({ apiKey: key })
        .chat.completions.create({ model: 'gpt-test', messages: hello })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((error as APIError).error).toMatchObject({ code: 'insufficient_permissions' });
    });

    it('answers a stream that breaks before any text with a JSON error status, not a half stream', async () => {
      const { test } = context();
      // Anthropic's three opening events arrive, then the error: the client has seen nothing yet.
      test.emulator.script({
        kind: 'text',
        text: 'never sent',
        streamFault: { kind: 'error-event', afterChunks: 3, status: 500, message: 'broke early' },
      });
      const error = await context()
        .openai()
        .chat.completions.create({ model: 'claude-test', messages: hello, stream: true })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect((error as APIError).message).toContain('broke early');
    });

    describe.each(providerModels)('upstream failures on $model ($provider)', ({ provider, model }) => {
      it('passes a 429 that outlasted the retries on as RateLimitError, and tells the SDK not to retry again', async () => {
        const { test } = context();
        test.emulator.script({
          kind: 'error',
          status: 429,
          retryAfterSeconds: 0,
          message: 'slow down',
          times: 3,
        });
        // The SDK's default retries stay on: AgentDesk's answer must stop them.
        const error = await context()
          .openai({ maxRetries: 2 })
          .chat.completions.create({ model, messages: hello })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.RateLimitError);
        const rateLimited = error as InstanceType<typeof OpenAI.RateLimitError>;
        expect(rateLimited.headers.get('x-should-retry')).toBe('false');
        expect(rateLimited.error).toMatchObject({ type: 'rate_limit_error' });
        expect(rateLimited.message).toContain(`${provider}:`);
        // Three attempts by the single retry loop, none added by the client.
        expect(test.emulator.requests).toHaveLength(3);
      });

      it('answers a provider outage that outlasted the retries with InternalServerError (502)', async () => {
        const { test } = context();
        const status = provider === 'anthropic' ? 529 : provider === 'gemini' ? 503 : 500;
        test.emulator.script({ kind: 'error', status, message: 'model exploded', times: 3 });
        const error = await context()
          .openai({ maxRetries: 2 })
          .chat.completions.create({ model, messages: hello })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.InternalServerError);
        expect((error as APIError).status).toBe(502);
        expect(test.emulator.requests).toHaveLength(3);
      });

      it('answers a stream whose provider call fails before any output with the error status, not a broken stream', async () => {
        const { test } = context();
        test.emulator.script({ kind: 'error', status: 429, retryAfterSeconds: 0, times: 3 });
        const error = await context()
          .openai()
          .chat.completions.create({ model, messages: hello, stream: true })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      });

      it('ends a stream that fails mid-way with OpenAI’s in-stream error event', async () => {
        const { test } = context();
        test.emulator.script({
          kind: 'text',
          text: 'partial answer that never ends',
          chunkSize: 4,
          // Anthropic opens with three events of its own before any text.
          streamFault: {
            kind: 'error-event',
            afterChunks: provider === 'anthropic' ? 6 : 3,
            status: 500,
            message: 'stream broke',
          },
        });
        const stream = await context()
          .openai()
          .chat.completions.create({ model, messages: hello, stream: true });
        let text = '';
        const error = await (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(APIError);
        expect((error as APIError).message).toContain('stream broke');
        expect(text.length).toBeGreaterThan(0);
      });
    });
  });
}
