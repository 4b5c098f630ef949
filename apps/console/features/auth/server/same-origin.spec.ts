import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './same-origin';

function headers(values: Record<string, string>): Headers {
  return new Headers(values);
}

describe('the CSRF check of route handlers', () => {
  it('accepts a form posted by the console’s own page', () => {
    expect(isSameOriginRequest(headers({ host: '127.0.0.1:3001', origin: 'http://127.0.0.1:3001' }))).toBe(
      true,
    );
  });

  it.each([
    ['no Origin', { host: '127.0.0.1:3001' }],
    ['an opaque Origin', { host: '127.0.0.1:3001', origin: 'null' }],
    ['another site', { host: '127.0.0.1:3001', origin: 'http://evil.example' }],
    ['another port', { host: '127.0.0.1:3001', origin: 'http://127.0.0.1:3002' }],
    ['a look-alike suffix', { host: 'console.test', origin: 'http://console.test.evil.example' }],
    ['a garbage Origin', { host: '127.0.0.1:3001', origin: 'not a url' }],
    [
      'a forwarded host the client chose',
      { host: 'console.test', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
    ],
    ['no Host', { origin: 'http://127.0.0.1:3001' }],
  ])('refuses %s', (_case, values) => {
    expect(isSameOriginRequest(headers(values))).toBe(false);
  });
});
