import { userPrincipal } from '@agentdesk/authz';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routeCaller, type RouteCallKind } from './route-caller';
import { currentSignIn, type SignedIn } from './signed-in';

// The cookie is read through Next's request context; here the sign-in is whatever a test says.
vi.mock('./signed-in', () => ({ currentSignIn: vi.fn() }));
const signIn = vi.mocked(currentSignIn);

const viewer: SignedIn = {
  credential: { consoleSession: 'token' },
  identity: { userId: 'u1', displayName: 'Vera', role: 'viewer', portalId: null, apiKeyId: null },
  principal: userPrincipal({ id: 'u1', role: 'viewer' }),
};

function request(origin: string | undefined): Request {
  const headers = new Headers({ host: 'console.test' });
  if (origin !== undefined) headers.set('origin', origin);
  return new Request('http://console.test/anything', { method: 'POST', headers });
}

async function refusalOf(kind: RouteCallKind, origin: string | undefined): Promise<Response> {
  const caller = await routeCaller(request(origin), kind);
  if (caller.ok) throw new Error('expected a refusal');
  return caller.refusal;
}

describe('who calls a console route handler', () => {
  beforeEach(() => {
    signIn.mockReset();
    signIn.mockResolvedValue(viewer);
  });

  it.each(['mutation', 'form-post'] as const)(
    'refuses a %s from another site or without an Origin, before reading the sign-in',
    async (kind) => {
      for (const origin of ['http://evil.example', 'null', undefined]) {
        const refusal = await refusalOf(kind, origin);
        expect(refusal.status).toBe(403);
        expect(await refusal.json()).toMatchObject({
          error: { code: 'FORBIDDEN', message: 'Cross-site request refused' },
        });
      }
      expect(signIn).not.toHaveBeenCalled();
    },
  );

  it('lets a read through from anywhere (a GET changes nothing)', async () => {
    expect(await routeCaller(request('http://evil.example'), 'read')).toEqual({ ok: true, signedIn: viewer });
  });

  it.each(['read', 'mutation'] as const)('answers a signed-out %s with the API’s 401 code', async (kind) => {
    signIn.mockResolvedValue(null);
    const refusal = await refusalOf(kind, 'http://console.test');
    expect(refusal.status).toBe(401);
    expect(await refusal.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('sends a signed-out form post to the sign-in page', async () => {
    signIn.mockResolvedValue(null);
    const refusal = await refusalOf('form-post', 'http://console.test');
    expect(refusal.status).toBe(303);
    expect(refusal.headers.get('location')).toBe('/sign-in');
  });

  it('hands the signed-in person to a same-origin mutation', async () => {
    expect(await routeCaller(request('http://console.test'), 'mutation')).toEqual({
      ok: true,
      signedIn: viewer,
    });
  });
});
