import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { rawHttp } from '../../support/raw-http';
import { startTestApi, type TestApi } from '../../support/test-api';

type Headers = Readonly<Record<string, string | string[] | number | undefined>>;

/** The headers every answer of the API carries, whatever the route, status or body. */
function expectSecurityHeaders(headers: Headers, what: string): void {
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(String(headers['permissions-policy']), what).toContain('camera=()');
  expect(String(headers['permissions-policy']), what).toContain('microphone=()');
  expect(String(headers['permissions-policy']), what).toContain('geolocation=()');
  expect(String(headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
}

const JSON_POLICY = "default-src 'none';frame-ancestors 'none'";

/** Which directives a policy sets, by name. */
function directives(policy: unknown): Map<string, string> {
  return new Map(
    String(policy)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

/** Security headers (`@fastify/helmet`): JSON, errors, streams, the OpenAPI page; HSTS when configured. */
export function describeSecurityHeaders(engine: Engine): void {
  describe(`security headers on every answer (${engine})`, () => {
    let test: TestApi;
    let aliceKey: IssuedKey;
    let session: Session;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      session = await createSession(test.api.repositories, alice, 'headers');
    });
    afterAll(async () => {
      await test?.close();
    });

    it('JSON answers: nothing to run, render or frame, and no HSTS unless configured', async () => {
      const answers = {
        'a listing': await test.request({ method: 'GET', url: '/v1/sessions', key: aliceKey.key }),
        'a refused key (401)': await test.request({ method: 'GET', url: '/v1/sessions', key: 'adk_nope' }),
        'an unknown route (404)': await test.request({ method: 'GET', url: '/nowhere' }),
        'a health check': await test.request({ method: 'GET', url: '/healthz' }),
        'the OpenAPI document': await test.request({ method: 'GET', url: '/openapi.json' }),
      };
      for (const [what, response] of Object.entries(answers)) {
        expectSecurityHeaders(response.headers, what);
        expect(response.headers['content-security-policy'], what).toBe(JSON_POLICY);
        expect(response.headers['strict-transport-security'], what).toBeUndefined();
      }
      expect(answers['a listing'].statusCode).toBe(200);
      expect(answers['a refused key (401)'].statusCode).toBe(401);
      expect(answers['an unknown route (404)'].statusCode).toBe(404);
    });

    it('a streamed turn (the reply is written by hand) carries them too', async () => {
      test.emulator.script({ kind: 'text', text: 'streamed', chunkSize: 4 });
      const response = await test.request({
        method: 'POST',
        url: `/v1/sessions/${session.id}/messages`,
        key: aliceKey.key,
        body: { content: 'Stream it' },
        headers: { accept: 'text/event-stream' },
      });
      expect(response.headers['content-type']).toContain('text/event-stream');
      expectSecurityHeaders(response.headers, 'SSE');
      expect(response.headers['content-security-policy']).toBe(JSON_POLICY);
    });

    it('a request refused before any route (no Host) carries them', async () => {
      const url = await test.api.listen();
      const noHost = await rawHttp(url, 'GET /v1/sessions HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(noHost.status).toBe(400);
      expectSecurityHeaders(noHost.headers, 'no Host');
    });

    it('the OpenAPI page may load its own files, styles and data: icons, and nothing else', async () => {
      const docs = await test.request({ method: 'GET', url: '/docs' });
      expect(docs.statusCode).toBe(200);
      expectSecurityHeaders(docs.headers, '/docs');
      const policy = directives(docs.headers['content-security-policy']);
      expect(policy.get('default-src')).toBe("'none'");
      expect(policy.get('script-src')).toBe("'self'");
      expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(policy.get('img-src')).toBe("'self' data:");
      expect(policy.get('connect-src')).toBe("'self'");
      expect(policy.get('frame-ancestors')).toBe("'none'");
      // Its scripts are files: the page has no inline script the policy would have to allow.
      expect(docs.body).not.toMatch(/<script>(?!<\/script>)/);
      const asset = await test.request({ method: 'GET', url: '/docs/swagger-initializer.js' });
      expect(asset.headers['content-security-policy']).toBe(JSON_POLICY);
    });
  });

  describe(`HSTS when the API is served over HTTPS (${engine})`, () => {
    let test: TestApi;
    beforeAll(async () => {
      test = await startTestApi(engine, { AGENTDESK_HSTS: 'true' });
    });
    afterAll(async () => {
      await test?.close();
    });

    it('every answer says to use HTTPS for a year', async () => {
      for (const url of ['/healthz', '/nowhere', '/docs']) {
        const response = await test.request({ method: 'GET', url });
        expect(response.headers['strict-transport-security'], url).toBe(
          'max-age=31536000; includeSubDomains',
        );
        expectSecurityHeaders(response.headers, url);
      }
    });
  });
}
