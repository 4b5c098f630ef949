import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCredential } from './credentials';

/** Raw header lists as Node hands them over: name, value, name, value… */
const raw = (...pairs: Array<[string, string]>): string[] => pairs.flat();

describe('readCredential', () => {
  it('reads one Authorization: Bearer (any case) or one X-API-Key', () => {
    expect(readCredential(raw(['Authorization', 'Bearer abc']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential(raw(['authorization', 'bearer   abc  ']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential(raw(['X-API-Key', ' abc ']))).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential(raw(['x-api-key', 'abc'], ['Accept', 'application/json']))).toEqual({
      kind: 'key',
      key: 'abc',
    });
  });

  it('distinguishes no credential from an unusable one', () => {
    expect(readCredential([])).toEqual({ kind: 'none' });
    expect(readCredential(raw(['Host', 'localhost']))).toEqual({ kind: 'none' });
    for (const headers of [
      raw(['Authorization', 'Basic YTpi']),
      raw(['Authorization', 'Bearer']),
      raw(['Authorization', 'Bearer a b']),
      raw(['X-API-Key', '']),
      raw(['X-API-Key', '   ']),
    ]) {
      expect(readCredential(headers), JSON.stringify(headers)).toEqual({ kind: 'malformed' });
    }
  });

  it('refuses more than one credential, whatever the spelling, even when they carry the same key', () => {
    for (const headers of [
      raw(['Authorization', 'Bearer user'], ['Authorization', 'Bearer admin']),
      raw(['authorization', 'Bearer same'], ['AUTHORIZATION', 'Bearer same']),
      raw(['Authorization', 'Bearer same'], ['X-API-Key', 'same']),
      raw(['X-API-Key', 'admin'], ['Authorization', 'Bearer user']),
      raw(['X-API-Key', 'a'], ['x-api-key', 'b']),
      raw(['X-API-Key', 'a, b']),
      raw(['X-API-Key', 'a,b']),
      raw(['Authorization', 'Bearer a,b']),
      raw(['Authorization', 'Bearer a, Bearer b']),
      raw(['Authorization', 'Bearer ok'], ['X-API-Key', '']),
    ]) {
      expect(readCredential(headers), JSON.stringify(headers)).toEqual({ kind: 'ambiguous' });
    }
  });

  it('never picks one of several credential headers (property)', () => {
    const credentialHeader = fc.record({
      name: fc.constantFrom('Authorization', 'authorization', 'X-API-Key', 'x-api-key', 'X-Api-Key'),
      value: fc.string({ maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.array(credentialHeader, { minLength: 2, maxLength: 4 }), (headers) => {
        expect(readCredential(headers.flatMap((header) => [header.name, header.value]))).toEqual({
          kind: 'ambiguous',
        });
      }),
    );
  });
});
