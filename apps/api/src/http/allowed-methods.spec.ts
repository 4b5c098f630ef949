import { describe, expect, it } from 'vitest';
import { allowedMethodsFor, pathOfUrl } from './allowed-methods';

const routes = [
  { method: 'GET', path: '/v1/sessions' },
  { method: 'HEAD', path: '/v1/sessions' },
  { method: 'POST', path: '/v1/sessions' },
  { method: 'GET', path: '/v1/sessions/:id' },
  { method: 'PATCH', path: '/v1/sessions/:id' },
  { method: 'POST', path: '/v1/sessions/:id/close' },
];

describe('allowedMethodsFor', () => {
  it('lists the methods of the routes whose pattern matches the path', () => {
    expect(allowedMethodsFor(routes, '/v1/sessions')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethodsFor(routes, '/v1/sessions/abc')).toEqual(['GET', 'PATCH']);
    expect(allowedMethodsFor(routes, '/v1/sessions/abc/close')).toEqual(['POST']);
  });

  it('matches no route for unknown paths, empty parameters or extra segments', () => {
    for (const path of ['/v1/nothing', '/v1/sessions/', '/v1/sessions//close', '/v1/sessions/a/b', '/']) {
      expect(allowedMethodsFor(routes, path), path).toEqual([]);
    }
  });

  it('takes the path of a URL without its query or fragment', () => {
    expect(pathOfUrl('/v1/sessions?limit=1')).toBe('/v1/sessions');
    expect(pathOfUrl('/v1/sessions#x')).toBe('/v1/sessions');
    expect(pathOfUrl('/v1/sessions')).toBe('/v1/sessions');
  });
});
