import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInHref } from './return-path';

const probe = 'http://console.invalid';

describe('safeReturnPath', () => {
  it.each([
    ['/sessions/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '/sessions/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'],
    ['/sessions?user=u-1&status=open', '/sessions?user=u-1&status=open'],
    ['/search?q=January+report', '/search?q=January+report'],
    ['/sessions?label=support%20case', '/sessions?label=support%20case'],
    ['/keys', '/keys'],
    ['/', '/'],
    ['/sessions/./abc', '/sessions/abc'],
    ['/sessions/abc#message-1', '/sessions/abc'],
    ['/sessions?next=//evil.example', '/sessions?next=//evil.example'],
  ])('keeps %s', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/sessions'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a javascript: URL in capitals', 'JaVaScRiPt:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/sessions'],
    ['a backslash host', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a backslash later on', '/sessions\\..\\..\\evil'],
    ['a tab that a parser drops', '/\t/evil.example'],
    ['a newline that a parser drops', '/\n/evil.example'],
    ['leading whitespace', ' /sessions'],
    ['an encoded slash', '/%2Fevil.example'],
    ['encoded slashes', '%2F%2Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded tab', '/%09/evil.example'],
    ['a doubly encoded slash', '/%252Fevil.example'],
    ['a triply encoded backslash', '/%25255Cevil.example'],
    ['dot segments that climb to a second slash', '/..//evil.example'],
    ['encoded dot segments that climb to an encoded slash', '/%2e%2e/%2fevil.example'],
    ['a malformed escape', '/sessions/%E0%A4%A'],
    ['a relative path without a slash', 'sessions'],
    ['user info', '//user:pass@evil.example'],
    ['the sign-in page', '/sign-in'],
    ['the sign-in page with a query', '/sign-in?next=/keys'],
    ['the sign-in handler', '/auth/sign-in'],
    ['an encoded sign-in page', '/%73ign-in'],
    ['Next internals', '/_next/static/chunk.js'],
    ['the empty string', ''],
    ['nothing', undefined],
    ['null', null],
    ['a path too long to be a page', `/sessions?q=${'a'.repeat(3000)}`],
  ])('refuses %s', (_case, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });

  it('returns only paths that stay on this origin, whatever text it is given', () => {
    const pieces = fc.constantFrom(
      '/',
      '//',
      '\\',
      '%2F',
      '%2f',
      '%5C',
      '%25',
      '%09',
      '\t',
      '\n',
      ' ',
      '.',
      '..',
      ':',
      '@',
      '?',
      '#',
      'javascript:',
      'https:',
      'evil.example',
      'sessions',
      'sign-in',
    );
    const candidate = fc.oneof(
      fc.string(),
      fc
        .array(fc.oneof(pieces, fc.string({ maxLength: 3 })), { maxLength: 10 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        const path = safeReturnPath(value);
        if (path === undefined) return;
        // As a browser resolves a Location header: on this origin, and stable when checked again.
        expect(new URL(path, probe).origin).toBe(probe);
        expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
        expect(decodeURIComponent(path).startsWith('//')).toBe(false);
        expect(safeReturnPath(path)).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('signInHref', () => {
  it('carries the page asked for', () => {
    expect(signInHref('/sessions/abc?x=1')).toBe('/sign-in?next=%2Fsessions%2Fabc%3Fx%3D1');
  });

  it('leaves out the default page and anything refused', () => {
    expect(signInHref('/sessions')).toBe('/sign-in');
    expect(signInHref('//evil.example')).toBe('/sign-in');
    expect(signInHref(undefined, 'expired')).toBe('/sign-in?error=expired');
  });
});
