import { describe, expect, it } from 'vitest';
import { presentedWayOf, selectWayIn, wayNotAcceptedMessage } from './ways-in';

const headers = (...names: string[]): string[] => names.flatMap((name) => [name, 'value']);

describe('the way in a request presents', () => {
  it.each([
    [[], 'none'],
    [['Host', 'Accept'], 'none'],
    [['Authorization'], 'api-key'],
    [['x-api-key'], 'api-key'],
    [['Authorization', 'X-API-Key'], 'api-key'],
    [['X-Console-Session'], 'console-session'],
    [['x-console-session', 'x-console-session'], 'console-session'],
    [['authorization', 'x-console-session'], 'ambiguous'],
    [['x-console-session', 'X-Api-Key'], 'ambiguous'],
  ] as const)('%j → %s', (names, expected) => {
    expect(presentedWayOf(headers(...names))).toBe(expected);
  });
});

describe('which strategy judges a request', () => {
  it('no credential goes to the route’s first way (API key: dev mode or "missing")', () => {
    expect(selectWayIn('none', ['api-key', 'console-session'])).toEqual({
      kind: 'authenticate',
      way: 'api-key',
    });
    expect(selectWayIn('none', ['console-session'])).toEqual({
      kind: 'authenticate',
      way: 'console-session',
    });
  });

  it('a credential goes to its own way when the route takes it', () => {
    expect(selectWayIn('console-session', ['api-key', 'console-session'])).toEqual({
      kind: 'authenticate',
      way: 'console-session',
    });
    expect(selectWayIn('api-key', ['api-key'])).toEqual({ kind: 'authenticate', way: 'api-key' });
  });

  it('refuses a way the route does not take, and both kinds at once', () => {
    expect(selectWayIn('api-key', ['console-session'])).toEqual({
      kind: 'refuse',
      failure: 'way-not-accepted',
      presented: 'api-key',
    });
    expect(selectWayIn('console-session', ['api-key'])).toMatchObject({ failure: 'way-not-accepted' });
    expect(selectWayIn('ambiguous', ['api-key', 'console-session'])).toMatchObject({ failure: 'ambiguous' });
  });

  it('names the ways a route takes when it refuses another', () => {
    expect(wayNotAcceptedMessage('api-key', ['console-session'])).toBe(
      "This route is not called with an API key (Authorization: Bearer <key> or X-API-Key: <key>); it takes a console session (X-Console-Session: <token>, sent by the console's server)",
    );
  });
});
