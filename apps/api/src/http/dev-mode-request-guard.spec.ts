import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackAuthority, isLoopbackOrigin } from './dev-mode-request-guard';

describe('isLoopbackAuthority', () => {
  it('accepts localhost, 127.0.0.0/8 and [::1], with any port, as a browser spells them', () => {
    for (const authority of [
      'localhost',
      'LocalHost:3000',
      '127.0.0.1',
      '127.0.0.1:65535',
      '127.255.0.9',
      '127.1',
      '[::1]',
      '[::1]:8080',
      '[0:0:0:0:0:0:0:1]',
    ]) {
      expect(isLoopbackAuthority(authority), authority).toBe(true);
    }
  });

  it('refuses every other name, address and shape', () => {
    for (const authority of [
      '',
      'rebind.evil.example',
      'localhost.',
      'localhost.evil.example',
      'evil.localhost',
      '127.0.0.1.nip.io',
      'evil@localhost',
      'localhost/path',
      'localhost:3000:1',
      'localhost:99999',
      '10.0.0.1',
      '128.0.0.1',
      '0.0.0.0',
      '[::]',
      '[::2]',
      '[::ffff:127.0.0.1]',
      ' localhost',
    ]) {
      expect(isLoopbackAuthority(authority), authority).toBe(false);
    }
  });

  it('never takes a DNS name for this machine, whatever it resolves to (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    const topLevel = fc.stringMatching(/^[a-z]{2,10}$/);
    const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        topLevel,
        port,
        (labels, tld, portNumber) => {
          const name = [...labels, tld].join('.');
          const authority = portNumber === undefined ? name : `${name}:${portNumber}`;
          expect(isLoopbackAuthority(authority), authority).toBe(false);
          expect(isLoopbackOrigin(`http://${authority}`), authority).toBe(false);
        },
      ),
    );
  });
});

describe('isLoopbackOrigin', () => {
  it('accepts http(s) origins on this machine only, and nothing with a path or user info', () => {
    expect(isLoopbackOrigin('http://localhost:5173')).toBe(true);
    expect(isLoopbackOrigin('https://127.0.0.1')).toBe(true);
    expect(isLoopbackOrigin('http://[::1]:3000')).toBe(true);
    for (const origin of [
      'null',
      'file://',
      'ftp://localhost',
      'http://localhost/',
      'http://user@localhost',
      'https://evil.example',
      'chrome-extension://localhost',
    ]) {
      expect(isLoopbackOrigin(origin), origin).toBe(false);
    }
  });
});
