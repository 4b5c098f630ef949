import { describe, expect, it } from 'vitest';
import { ApiRequestError, ApiUnavailableError } from '../../api-client';
import { browserOf, cookieLifetimeSeconds, signInFailureOf } from './console-sessions-api';

describe('what the sign-in tells the API about the browser', () => {
  it('the first forwarded address and the user agent', () => {
    const headers = new Headers({
      'x-forwarded-for': '203.0.113.7, 10.0.0.1',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
    });
    expect(browserOf(headers)).toEqual({
      clientAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
    });
    expect(browserOf(new Headers({ 'x-forwarded-for': '::ffff:127.0.0.1' }))).toEqual({
      clientAddress: '::ffff:127.0.0.1',
    });
  });

  it('leaves out an address that is not one, and bounds the user agent to one line of 500', () => {
    const headers = new Headers({ 'x-forwarded-for': '<script>', 'user-agent': `a\tb${'x'.repeat(600)}` });
    const browser = browserOf(headers);
    expect(browser.clientAddress).toBeUndefined();
    expect(browser.userAgent).toHaveLength(500);
    expect(browser.userAgent?.startsWith('a b')).toBe(true);
    expect(browserOf(new Headers())).toEqual({});
  });
});

describe('signing in', () => {
  it('names why a key was refused, from the API’s answer', () => {
    expect(signInFailureOf(new ApiRequestError(401, 'UNAUTHENTICATED', 'no'))).toBe('invalid-key');
    expect(signInFailureOf(new ApiRequestError(400, 'VALIDATION_FAILED', 'no'))).toBe('invalid-key');
    expect(signInFailureOf(new ApiRequestError(403, 'FORBIDDEN', 'no'))).toBe('not-a-console-role');
    expect(signInFailureOf(new ApiUnavailableError('down'))).toBe('api-unavailable');
    expect(signInFailureOf(new ApiRequestError(429, 'RATE_LIMITED', 'slow down'))).toBe('api-unavailable');
  });

  it('keeps the cookie as long as the session lasts on the API, a minute at least', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(cookieLifetimeSeconds('2026-01-01T08:00:00.000Z', now)).toBe(8 * 60 * 60);
    expect(cookieLifetimeSeconds('2025-12-31T00:00:00.000Z', now)).toBe(60);
    expect(cookieLifetimeSeconds('not a date', now)).toBe(60);
  });
});
