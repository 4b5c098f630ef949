import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, securityHeaders } from './security-headers';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split('; ').map((directive) => {
      const [name = '', ...values] = directive.split(' ');
      return [name, values.join(' ')];
    }),
  );
}

describe('the console’s security headers', () => {
  const plain = securityHeaders({ nonce: 'bm9uY2U=', secureTransport: false });

  it('let no page frame the console', () => {
    expect(directives(plain['content-security-policy'] ?? '').get('frame-ancestors')).toBe("'none'");
    expect(plain['x-frame-options']).toBe('DENY');
  });

  it('run only scripts carrying this request’s nonce (and what they load), never eval', () => {
    const policy = directives(contentSecurityPolicy({ nonce: 'bm9uY2U=', secureTransport: false }));
    expect(policy.get('script-src')).toBe("'self' 'nonce-bm9uY2U=' 'strict-dynamic'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('form-action')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self' 'nonce-bm9uY2U='");
    expect(policy.get('style-src-attr')).toBe("'unsafe-inline'");
  });

  it('allow eval for `next dev` only', () => {
    const development = contentSecurityPolicy({ nonce: 'n', secureTransport: false, development: true });
    expect(directives(development).get('script-src')).toContain("'unsafe-eval'");
  });

  it('carry the other headers, HSTS only behind HTTPS', () => {
    expect(plain).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(plain['permissions-policy']).toContain('camera=()');
    expect(plain['permissions-policy']).toContain('microphone=()');
    expect(plain['permissions-policy']).toContain('geolocation=()');
    expect(plain).not.toHaveProperty('strict-transport-security');
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');

    const secure = securityHeaders({ nonce: 'n', secureTransport: true });
    expect(secure['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('make a new 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(atob(nonce)).toHaveLength(16);
  });
});
