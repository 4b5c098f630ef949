import { userPrincipal } from '@agentdesk/authz';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../core/api-key-format';
import { auditRecordOf, outcomeOf, type AnsweredRequest } from './audit-record';

const admin = userPrincipal({ id: 'u-admin', role: 'admin', apiKeyId: 'k-admin' });

const revokeRoute: AnsweredRequest['route'] = {
  audit: { kind: 'audited', action: 'admin.api-key.revoke', target: { kind: 'api-key', idParam: 'id' } },
  ways: ['api-key', 'console-session'],
};
const signInRoute: AnsweredRequest['route'] = {
  audit: {
    kind: 'audited',
    action: 'console.sign-in',
    target: { kind: 'console-session' },
    failedCredentials: { details: () => ({ userAgent: 'Chromium' }) },
  },
  ways: ['api-key'],
};

function answered(overrides: Partial<AnsweredRequest>): AnsweredRequest {
  return {
    route: revokeRoute,
    statusCode: 200,
    principal: admin,
    wayIn: 'api-key',
    rawHeaders: [],
    params: { id: 'k-target' },
    body: undefined,
    change: undefined,
    requestId: 'req-1',
    clientRequestId: null,
    reason: null,
    errorCode: null,
    ...overrides,
  };
}

describe('auditRecordOf', () => {
  it('maps statuses to outcomes', () => {
    expect([200, 201, 204, 302, 400, 403, 404, 409, 500, 503].map(outcomeOf)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'refused',
      'refused',
      'refused',
      'refused',
      'failed',
      'failed',
    ]);
  });

  it('records a success with what the handler described, and the actor and way in', () => {
    expect(
      auditRecordOf(
        answered({
          change: {
            target: { kind: 'api-key', id: 'k-target' },
            targetUserId: 'u-bob',
            details: { role: 'user' },
          },
          wayIn: 'console-session',
        }),
      ),
    ).toEqual({
      action: 'admin.api-key.revoke',
      outcome: 'succeeded',
      reason: null,
      requestId: 'req-1',
      clientRequestId: null,
      actorPrincipalId: 'u-admin',
      actorKind: 'user',
      actorApiKeyId: 'k-admin',
      wayIn: 'console-session',
      target: { kind: 'api-key', id: 'k-target' },
      targetUserId: 'u-bob',
      sessionId: null,
      details: { role: 'user' },
    });
  });

  it('records a refused or failed attempt with its status and code, naming the target from the path', () => {
    expect(auditRecordOf(answered({ statusCode: 404, errorCode: 'NOT_FOUND' }))).toMatchObject({
      outcome: 'refused',
      target: { kind: 'api-key', id: 'k-target' },
      details: { status: 404, code: 'NOT_FOUND' },
    });
    expect(auditRecordOf(answered({ statusCode: 500, errorCode: 'INTERNAL' }))).toMatchObject({
      outcome: 'failed',
      details: { status: 500, code: 'INTERNAL' },
    });
  });

  it('writes nothing for a 429, nor for a caller nobody recognised on a route that records no failed credentials', () => {
    expect(auditRecordOf(answered({ statusCode: 429 }))).toBeUndefined();
    expect(
      auditRecordOf(answered({ statusCode: 401, principal: undefined, rawHeaders: ['X-API-Key', 'x'] })),
    ).toBeUndefined();
  });

  it('records a failed sign-in as nobody, with the key id it named; only for a credential of a way the route takes', () => {
    const key = generateApiKey();
    const failed = (rawHeaders: string[], statusCode = 401) =>
      auditRecordOf(
        answered({ route: signInRoute, statusCode, principal: undefined, wayIn: undefined, rawHeaders }),
      );
    expect(failed(['Authorization', `Bearer ${key.key}`])).toMatchObject({
      actorPrincipalId: 'unauthenticated',
      actorKind: 'unauthenticated',
      actorApiKeyId: null,
      wayIn: 'api-key',
      outcome: 'refused',
      target: { kind: 'console-session', id: null },
      details: { status: 401, presentedKeyId: key.keyId, userAgent: 'Chromium' },
    });
    expect(failed(['X-API-Key', 'not-a-key'])).toMatchObject({ details: { presentedKeyId: null } });
    // Nothing presented, a way the route does not take, two credentials: not a guess at a key.
    expect(failed([])).toBeUndefined();
    expect(failed(['X-Console-Session', 'adcs_x'])).toBeUndefined();
    expect(failed(['X-API-Key', 'a', 'X-Console-Session', 'b'])).toBeUndefined();
    // A refusal other than the credential's (a 400 before authentication) is not a failed sign-in.
    expect(failed(['X-API-Key', 'a'], 400)).toBeUndefined();
  });
});
