import type { AuditEntry, Repositories } from '@agentdesk/storage';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../../../src/core/api-key-format';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issueStaffKeys,
  issueUserKey,
  missingId,
  openConsoleSession,
  type IssuedKey,
} from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * Every change is audited: one record per call of an @Audited route, written by the audit trail
 * with who (actor and way in), what (action, target), how it ended (succeeded, refused, failed) and
 * the request ids — for the admin's changes, the lab, sign-ins (failed ones too) and deletions.
 * Which routes are audited is checked from the route table in `audit-coverage.spec.ts`.
 */

const reason = 'rotating the QA keys';
const clientRequestId = 'change-ticket-7';

/** The records written since `marker` (the newest id before the request), oldest first. */
async function recordsSince(repositories: Repositories, marker: string | null): Promise<AuditEntry[]> {
  const page = await repositories.audit.list({}, { limit: 50 });
  const index = page.items.findIndex((entry) => entry.id === marker);
  return (index === -1 ? page.items : page.items.slice(0, index)).reverse();
}

/** The key with its last character changed: its id stays, its secret no longer matches. */
function wrongSecret(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
}

async function newestId(repositories: Repositories): Promise<string | null> {
  return (await repositories.audit.list({}, { limit: 1 })).items[0]?.id ?? null;
}

export function describeAuditTrail(engine: Engine): void {
  describe(`every change audited (${engine})`, () => {
    let test: TestApi;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine);
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
    });
    afterAll(async () => {
      await test?.close();
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Sends one request and answers it with the records it wrote. */
    const audited = async (
      request: Parameters<TestApi['request']>[0],
    ): Promise<{ response: InjectResponse; records: AuditEntry[] }> => {
      const marker = await newestId(test.api.repositories);
      const response = await test.request(request);
      return { response, records: await recordsSince(test.api.repositories, marker) };
    };
    const withReason = { 'x-audit-reason': reason, 'x-request-id': clientRequestId };

    it('creating and revoking an admin key each write one record: actor, way in, action, target, outcome, request ids', async () => {
      const created = await audited({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        headers: withReason,
        body: { role: 'admin', label: 'break-glass', externalId: 'ops-oncall' },
      });
      expect(created.response.statusCode, created.response.body).toBe(201);
      const { apiKey, key } = created.response.json<{
        apiKey: { id: string; prefix: string; ownerUserId: string };
        key: string;
      }>();
      expect(created.records).toEqual([
        {
          id: expect.any(String),
          at: expect.any(Date),
          actorPrincipalId: adminKey.stored.ownerUserId,
          actorKind: 'user',
          actorApiKeyId: adminKey.stored.id,
          wayIn: 'api-key',
          action: 'admin.api-key.create',
          outcome: 'succeeded',
          target: { kind: 'api-key', id: apiKey.id },
          targetUserId: apiKey.ownerUserId,
          sessionId: null,
          reason,
          requestId: created.response.headers['x-request-id'],
          clientRequestId,
          details: { role: 'admin', prefix: apiKey.prefix, label: 'break-glass', portalId: null },
        },
      ]);
      // The secret is in the one answer only, never in the log.
      expect(JSON.stringify(created.records)).not.toContain(key.slice(-43));

      // Revoked from the console: the way in says so.
      const console = await openConsoleSession(test.api.repositories, adminKey);
      const revoked = await audited({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${apiKey.id}`,
        headers: { 'x-console-session': console.token },
      });
      expect(revoked.response.statusCode, revoked.response.body).toBe(200);
      expect(revoked.records).toMatchObject([
        {
          actorPrincipalId: adminKey.stored.ownerUserId,
          actorApiKeyId: adminKey.stored.id,
          wayIn: 'console-session',
          action: 'admin.api-key.revoke',
          outcome: 'succeeded',
          target: { kind: 'api-key', id: apiKey.id },
          targetUserId: apiKey.ownerUserId,
          reason: null,
          requestId: revoked.response.headers['x-request-id'],
          clientRequestId: null,
          details: { role: 'admin', prefix: apiKey.prefix },
        },
      ]);
    });

    it('records refused attempts of a recognised caller: a viewer’s key creation (403), a missing key (404), an invalid body (400)', async () => {
      const forbidden = await audited({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: viewerKey.key,
        headers: withReason,
        body: { role: 'admin', label: 'mine now', externalId: 'qa' },
      });
      expect(forbidden.response.statusCode).toBe(403);
      expect(forbidden.records).toEqual([
        expect.objectContaining({
          actorPrincipalId: viewerKey.stored.ownerUserId,
          actorKind: 'user',
          actorApiKeyId: viewerKey.stored.id,
          wayIn: 'api-key',
          action: 'admin.api-key.create',
          outcome: 'refused',
          target: { kind: 'api-key', id: null },
          targetUserId: null,
          reason,
          requestId: forbidden.response.headers['x-request-id'],
          clientRequestId,
          details: { status: 403, code: 'FORBIDDEN' },
        }),
      ]);
      // Nothing was created by it.
      expect(
        (await test.api.repositories.apiKeys.list({}, { limit: 100 })).items.map((key) => key.label),
      ).not.toContain('mine now');

      const missing = await audited({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${missingId}`,
        key: adminKey.key,
      });
      expect(missing.response.statusCode).toBe(404);
      expect(missing.records).toMatchObject([
        {
          action: 'admin.api-key.revoke',
          outcome: 'refused',
          // The path names what the attempt aimed at.
          target: { kind: 'api-key', id: missingId },
          details: { status: 404, code: 'NOT_FOUND' },
        },
      ]);

      const invalid = await audited({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'root', label: 'x' },
      });
      expect(invalid.response.statusCode).toBe(400);
      expect(invalid.records).toMatchObject([
        {
          action: 'admin.api-key.create',
          outcome: 'refused',
          details: { status: 400, code: 'VALIDATION_FAILED' },
        },
      ]);
    });

    it('writes nothing for a caller nobody recognised, nor for reads (they are audited by what they showed)', async () => {
      const anonymous = await audited({
        method: 'POST',
        url: '/v1/admin/api-keys',
        body: { role: 'admin', label: 'x', externalId: 'x' },
      });
      expect(anonymous.response.statusCode).toBe(401);
      expect(anonymous.records).toEqual([]);
      const wrongKey = await audited({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${adminKey.stored.id}`,
        key: wrongSecret(adminKey.key),
      });
      expect(wrongKey.response.statusCode).toBe(401);
      expect(wrongKey.records).toEqual([]);
      const read = await audited({ method: 'GET', url: '/v1/me', key: adminKey.key });
      expect(read.response.statusCode).toBe(200);
      expect(read.records).toEqual([]);
    });

    it('a lab run writes one record naming the run and its models', async () => {
      const run = await audited({
        method: 'POST',
        url: '/v1/admin/structured-output/runs',
        key: viewerKey.key,
        headers: withReason,
        body: {
          name: 'audited run',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          prompt: 'Say ok',
          targets: [{ model: 'gpt-test' }],
        },
      });
      expect(run.response.statusCode, run.response.body).toBe(201);
      expect(run.records).toMatchObject([
        {
          actorPrincipalId: viewerKey.stored.ownerUserId,
          wayIn: 'api-key',
          action: 'lab.run.create',
          outcome: 'succeeded',
          target: { kind: 'lab-run', id: run.response.json<{ id: string }>().id },
          reason,
          requestId: run.response.headers['x-request-id'],
          details: { name: 'audited run', models: ['gpt-test'] },
        },
      ]);
    });

    it('sign-in is audited, and so is a failed one: who was tried, from which browser, never as anyone', async () => {
      const signedIn = await audited({
        method: 'POST',
        url: '/v1/console-sessions',
        key: viewerKey.key,
        body: { clientAddress: '203.0.113.7', userAgent: 'Chromium 156' },
      });
      expect(signedIn.response.statusCode).toBe(201);
      const sessionId = signedIn.response.json<{ session: { id: string } }>().session.id;
      expect(signedIn.records).toMatchObject([
        {
          actorPrincipalId: viewerKey.stored.ownerUserId,
          wayIn: 'api-key',
          action: 'console.sign-in',
          outcome: 'succeeded',
          target: { kind: 'console-session', id: sessionId },
          targetUserId: viewerKey.stored.ownerUserId,
        },
      ]);

      // A revoked key, then a wrong secret for a known key id.
      const revoked = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'gone'),
        'viewer',
      );
      await test.api.repositories.apiKeys.revoke(revoked.stored.id);
      for (const key of [revoked.key, wrongSecret(viewerKey.key)]) {
        const failed = await audited({
          method: 'POST',
          url: '/v1/console-sessions',
          key,
          body: { clientAddress: '198.51.100.66', userAgent: 'curl/8' },
        });
        expect(failed.response.statusCode).toBe(401);
        expect(failed.records).toEqual([
          expect.objectContaining({
            actorPrincipalId: 'unauthenticated',
            actorKind: 'unauthenticated',
            actorApiKeyId: null,
            wayIn: 'api-key',
            action: 'console.sign-in',
            outcome: 'refused',
            target: { kind: 'console-session', id: null },
            targetUserId: null,
            requestId: failed.response.headers['x-request-id'],
            details: {
              status: 401,
              code: 'UNAUTHENTICATED',
              presentedKeyId: key === revoked.key ? revoked.stored.id : viewerKey.stored.id,
              clientAddress: '198.51.100.66',
              userAgent: 'curl/8',
            },
          }),
        ]);
      }
      // Not a key in the format: still a failed attempt, naming no key.
      const garbled = await audited({
        method: 'POST',
        url: '/v1/console-sessions',
        key: 'password123',
        body: {},
      });
      expect(garbled.records).toMatchObject([{ outcome: 'refused', details: { presentedKeyId: null } }]);
      // No credential at all, or a console session (sign-in takes a key): not an attempt at anyone's key.
      expect((await audited({ method: 'POST', url: '/v1/console-sessions', body: {} })).records).toEqual([]);
      const session = await openConsoleSession(test.api.repositories, viewerKey);
      const withSession = await audited({
        method: 'POST',
        url: '/v1/console-sessions',
        headers: { 'x-console-session': session.token },
        body: {},
      });
      expect(withSession.response.statusCode).toBe(401);
      expect(withSession.records).toEqual([]);

      const signedOut = await audited({
        method: 'DELETE',
        url: '/v1/console-sessions/current',
        headers: { 'x-console-session': session.token },
      });
      expect(signedOut.response.statusCode).toBe(204);
      expect(signedOut.records).toMatchObject([
        {
          wayIn: 'console-session',
          action: 'console.sign-out',
          outcome: 'succeeded',
          target: { kind: 'console-session', id: session.id },
        },
      ]);
    });

    it('deleting a session is audited with its owner; someone else’s is a refused attempt', async () => {
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const aliceKey = await issueUserKey(test.api.repositories, alice);
      const bobKey = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'bob'),
      );
      const session = await createSession(test.api.repositories, alice, 'to delete', 2);

      const foreign = await audited({ method: 'DELETE', url: `/v1/sessions/${session.id}`, key: bobKey.key });
      expect(foreign.response.statusCode).toBe(404);
      expect(foreign.records).toMatchObject([
        {
          actorPrincipalId: bobKey.stored.ownerUserId,
          action: 'session.delete',
          outcome: 'refused',
          target: { kind: 'session', id: session.id },
          // Whose it is stays unsaid: bob learns nothing, and the record claims nothing.
          targetUserId: null,
        },
      ]);
      const deleted = await audited({
        method: 'DELETE',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(deleted.response.statusCode).toBe(204);
      expect(deleted.records).toMatchObject([
        {
          actorPrincipalId: alice.id,
          action: 'session.delete',
          outcome: 'succeeded',
          target: { kind: 'session', id: session.id },
          targetUserId: alice.id,
          sessionId: session.id,
        },
      ]);
      // A new session and a turn are the user's own data plane: not audited per call.
      const created = await audited({ method: 'POST', url: '/v1/sessions', key: aliceKey.key, body: {} });
      expect(created.response.statusCode).toBe(201);
      expect(created.records).toEqual([]);
    });

    it('the audit log shows outcome, target, way in and actor kind, and filters refused attempts', async () => {
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/audit?outcome=refused&action=admin.api-key.create',
        key: adminKey.key,
      });
      expect(response.statusCode, response.body).toBe(200);
      const items = response.json<{ items: Array<Record<string, unknown>> }>().items;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(item).toMatchObject({ outcome: 'refused', action: 'admin.api-key.create', actorKind: 'user' });
        expect(item['target']).toMatchObject({ kind: 'api-key' });
        expect(item['wayIn']).toBe('api-key');
      }
      // Reads keep who and how too: this listing's own record.
      expect((await test.api.repositories.audit.list({ action: 'admin.audit.list' })).items[0]).toMatchObject(
        {
          actorKind: 'user',
          wayIn: 'api-key',
          outcome: 'succeeded',
          target: null,
          requestId: response.headers['x-request-id'],
        },
      );
      const invalid = await test.request({
        method: 'GET',
        url: '/v1/admin/audit?outcome=maybe',
        key: adminKey.key,
      });
      expect(invalid.statusCode).toBe(400);
    });

    it('answers a change whose record could not be written, and says so in the log', async () => {
      vi.spyOn(test.api.repositories.audit, 'append').mockRejectedValueOnce(new Error('disk full'));
      const created = await test.request({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'user', label: 'unrecorded', externalId: 'someone' },
      });
      // The key exists: hiding that from its caller would not undo it.
      expect(created.statusCode).toBe(201);
      expect(test.logs.lines.map((line) => JSON.parse(line) as unknown)).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: 'audit record of an answered request could not be written',
          action: 'admin.api-key.create',
          requestId: created.headers['x-request-id'],
        }),
      );
      const metrics = await test.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/agentdesk_audit_write_failures_total\{action="admin.api-key.create"\} 1/);
    });
  });

  describe(`failed sign-ins are bounded (${engine})`, () => {
    const signInWith = (test: TestApi, key: string) =>
      test.request({ method: 'POST', url: '/v1/console-sessions', key, body: {} });
    const signInRecords = async (test: TestApi) =>
      (await test.api.repositories.audit.list({ action: 'console.sign-in' })).items;

    it('a 429 writes no record: past the failure limit, guesses at one key cost nothing in the log', async () => {
      const test = await startTestApi(engine, { AGENTDESK_AUTH_FAILURE_LIMIT: '2' });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 4; attempt += 1)
          statuses.push((await signInWith(test, 'guess')).statusCode);
        expect(statuses).toEqual([401, 401, 429, 429]);
        expect(await signInRecords(test)).toHaveLength(2);
      } finally {
        await test.close();
      }
    });

    it('a new random key id per guess (never throttled) still writes at most the budget per address and window', async () => {
      const test = await startTestApi(engine, { AGENTDESK_AUTH_FAILURE_LIMIT: '2' });
      try {
        for (let attempt = 0; attempt < 5; attempt += 1)
          expect((await signInWith(test, generateApiKey().key)).statusCode).toBe(401);
        expect(await signInRecords(test)).toHaveLength(2);
        const metrics = await test.request({ method: 'GET', url: '/metrics' });
        expect(metrics.body).toMatch(
          /agentdesk_audit_records_suppressed_total\{action="console.sign-in"\} 3/,
        );
      } finally {
        await test.close();
      }
    });
  });
}
