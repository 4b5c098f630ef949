import { describe, expect, it } from 'vitest';
import { ApiRequestError, ApiUnavailableError } from './api-client';
import { relayFromApi, relayedRefusal } from './api-relay';

describe('relaying the API’s answer from a route handler', () => {
  it('passes the API’s refusal through with its status, code and message', async () => {
    const relayed = relayedRefusal(new ApiRequestError(404, 'NOT_FOUND', 'No such session'));
    expect(relayed.status).toBe(404);
    expect(await relayed.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No such session', requestId: null },
    });
  });

  it('answers an unreachable API with the one code for it, whatever the route', async () => {
    const relayed = relayedRefusal(new ApiUnavailableError('The API at http://api cannot be reached'));
    expect(relayed.status).toBe(502);
    expect(await relayed.json()).toMatchObject({ error: { code: 'UPSTREAM_FAILED' } });
  });

  it('throws what is not an API failure (a bug must not pass for a refusal)', () => {
    expect(() => relayedRefusal(new TypeError('boom'))).toThrow('boom');
  });

  it('answers with the handler’s own response when the API’s work succeeds', async () => {
    const answer = await relayFromApi(
      () => Promise.resolve({ n: 1 }),
      (data) => Response.json(data, { status: 201 }),
    );
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ n: 1 });
    const refused = await relayFromApi(
      () => Promise.reject(new ApiRequestError(403, 'FORBIDDEN', 'no')),
      () => new Response('never'),
    );
    expect(refused.status).toBe(403);
  });
});
