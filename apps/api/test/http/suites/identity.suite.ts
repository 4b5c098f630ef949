import { roleScopes } from '@agentdesk/authz';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../support/engines';
import { createLocalUser, issuePortalKey, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

interface IdentityBody {
  kind: string;
  role: string;
  scopes: string[];
  user: { id: string; externalId: string; displayName: string | null; portalId: string | null } | null;
  portal: { id: string; trustClientUserId: boolean } | null;
  apiKey: { id: string; prefix: string; label: string; createdAt: string } | null;
}

/** The key's secret in any form must never come back: the key, its secret part, its stored hash. */
function expectNoSecretOf(response: InjectResponse, issued: IssuedKey): void {
  const secretPart = issued.key.slice(-43);
  for (const secret of [issued.key, secretPart, issued.stored.secretHash])
    expect(response.body).not.toContain(secret);
  expect(response.body).not.toMatch(/secret|hash/i);
}

function keyJson(issued: IssuedKey): IdentityBody['apiKey'] {
  return {
    id: issued.stored.id,
    prefix: issued.stored.prefix,
    label: issued.stored.label,
    createdAt: issued.stored.createdAt.toISOString(),
  };
}

export function describeIdentity(engine: Engine): void {
  describe(`GET /v1/me (${engine})`, () => {
    const started: TestApi[] = [];
    async function start(environment: Record<string, string> = {}): Promise<TestApi> {
      const test = await startTestApi(engine, environment);
      started.push(test);
      return test;
    }
    afterEach(async () => {
      while (started.length > 0) await started.pop()?.close();
    });

    it('describes user, viewer and admin keys: their user, role, scopes and key metadata, never the secret', async () => {
      const test = await start();
      const repositories = test.api.repositories;
      for (const role of ['user', 'viewer', 'admin'] as const) {
        const holder = await createLocalUser(repositories, `holder-${role}`);
        const issued = await issueUserKey(repositories, holder, role);
        // Both credential headers name the same principal.
        for (const headers of [{ authorization: `Bearer ${issued.key}` }, { 'x-api-key': issued.key }]) {
          const response = await test.api.app.inject({ method: 'GET', url: '/v1/me', headers });
          expect(response.statusCode, role).toBe(200);
          expect(response.json<IdentityBody>()).toEqual({
            kind: 'user',
            role,
            scopes: [...roleScopes[role]],
            user: {
              id: holder.id,
              externalId: `holder-${role}`,
              displayName: `holder-${role}`,
              portalId: null,
            },
            portal: null,
            apiKey: keyJson(issued),
          });
          expectNoSecretOf(response, issued);
        }
      }
    });

    it('lists exactly the scopes the guard grants: a viewer may run the lab but not read its own sessions', async () => {
      const test = await start();
      const viewer = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'qa'),
        'viewer',
      );
      const scopes = (
        await test.request({ method: 'GET', url: '/v1/me', key: viewer.key })
      ).json<IdentityBody>().scopes;
      expect(scopes).toContain('lab:run');
      expect(scopes).not.toContain('sessions:read');
      expect((await test.request({ method: 'GET', url: '/v1/sessions', key: viewer.key })).statusCode).toBe(
        403,
      );
      expect(
        (await test.request({ method: 'GET', url: '/v1/admin/structured-output/runs', key: viewer.key }))
          .statusCode,
      ).toBe(200);
    });

    it('describes a portal key as the portal, whether or not it names an end user', async () => {
      const test = await start();
      const repositories = test.api.repositories;
      for (const trusted of [true, false]) {
        const portalId = `portal-${String(trusted)}`;
        const issued = await issuePortalKey(repositories, portalId, trusted);
        for (const headers of [{}, { 'x-end-user-id': 'carol' }] as Array<Record<string, string>>) {
          const response = await test.request({ method: 'GET', url: '/v1/me', key: issued.key, headers });
          expect(response.statusCode).toBe(200);
          expect(response.json<IdentityBody>()).toEqual({
            kind: 'portal',
            role: 'portal',
            scopes: [...roleScopes.portal],
            user: null,
            portal: { id: portalId, trustClientUserId: trusted },
            apiKey: keyJson(issued),
          });
          expectNoSecretOf(response, issued);
        }
      }
      // Naming an end user here creates nobody.
      expect(await repositories.users.findByExternalId('portal-true', 'carol')).toBeUndefined();
    });

    it('describes a portal end user’s own key with its user and portal', async () => {
      const test = await start();
      const carol = await test.api.repositories.users.ensurePortalUser('portal-1', 'carol');
      const issued = await issueUserKey(test.api.repositories, carol);
      const body = (
        await test.request({ method: 'GET', url: '/v1/me', key: issued.key })
      ).json<IdentityBody>();
      expect(body.kind).toBe('user');
      expect(body.user).toEqual({
        id: carol.id,
        externalId: 'carol',
        displayName: null,
        portalId: 'portal-1',
      });
      expect(body.portal).toEqual({ id: 'portal-1', trustClientUserId: false });
    });

    it('describes the dev-mode local user without a key, and a presented key as that key', async () => {
      const test = await start({ AGENTDESK_DEV_MODE: 'true' });
      const anonymous = await test.request({ method: 'GET', url: '/v1/me' });
      expect(anonymous.statusCode).toBe(200);
      const body = anonymous.json<IdentityBody>();
      expect(body).toMatchObject({
        kind: 'anonymous',
        role: 'user',
        scopes: [...roleScopes.user],
        portal: null,
        apiKey: null,
      });
      expect(body.user).toMatchObject({ id: test.api.bootstrap.devUserId, externalId: 'dev-mode-anonymous' });
      // The same user owns what the anonymous principal creates.
      const created = await test.request({ method: 'POST', url: '/v1/sessions', body: { label: 'mine' } });
      expect(created.json<{ ownerUserId: string }>().ownerUserId).toBe(body.user?.id);

      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'root'),
        'admin',
      );
      const withKey = await test.request({ method: 'GET', url: '/v1/me', key: admin.key });
      expect(withKey.json<IdentityBody>()).toMatchObject({
        kind: 'user',
        role: 'admin',
        apiKey: keyJson(admin),
      });
    });

    it('refuses missing, revoked and malformed keys with 401, and stray query parameters with 400', async () => {
      const test = await start();
      const alice = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      expect((await test.request({ method: 'GET', url: '/v1/me' })).statusCode).toBe(401);
      expect((await test.request({ method: 'GET', url: '/v1/me', key: `${alice.key}x` })).statusCode).toBe(
        401,
      );
      for (const url of ['/v1/me?userId=someone-else', '/v1/me?role=admin', '/v1/me?x=1&y=2']) {
        const response = await test.request({ method: 'GET', url, key: alice.key });
        expect(response.statusCode, url).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message, url).toMatch(/query/);
      }
      // Revoked through the admin route, which also drops the key from the cache of verified keys.
      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'revoker'),
        'admin',
      );
      const revoked = await test.request({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${alice.stored.id}`,
        key: admin.key,
      });
      expect(revoked.statusCode).toBe(200);
      expect((await test.request({ method: 'GET', url: '/v1/me', key: alice.key })).statusCode).toBe(401);
    });

    it('documents /v1/me and describes the keys truthfully in OpenAPI (opaque adk_ keys, not JWTs)', async () => {
      const test = await start();
      const document = (await test.request({ method: 'GET', url: '/openapi.json' })).json<{
        info: { description: string };
        paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
        components: { securitySchemes: Record<string, Record<string, string>> };
      }>();
      const schemes = document.components.securitySchemes;
      // @nestjs/swagger's addBearerAuth defaults bearerFormat to "JWT".
      expect(schemes['bearer']?.['bearerFormat']).not.toMatch(/jwt/i);
      expect(schemes['bearer']).toMatchObject({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'adk_<key id>_<secret>',
      });
      expect(schemes['api-key']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
      for (const scheme of Object.values(schemes)) {
        expect(scheme['description']).toContain('adk_<32 lowercase hex>_<43 base64url characters>');
        expect(scheme['description']).toContain('npm run admin-key');
      }
      const me = document.paths['/v1/me']?.['get'];
      expect(me?.security).toEqual([{ bearer: [] }, { 'api-key': [] }]);
      expect(Object.keys(me?.responses ?? {}).sort()).toEqual(['200', '400', '401', '429']);
      expect(JSON.stringify(me?.responses['200'])).toContain('trustClientUserId');
    });
  });
}
