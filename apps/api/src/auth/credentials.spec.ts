import { describe, expect, it } from 'vitest';
import { readCredential } from './credentials';

describe('readCredential', () => {
  it('reads Authorization: Bearer (any case) and X-API-Key', () => {
    expect(readCredential({ authorization: 'Bearer abc' })).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential({ authorization: 'bearer   abc  ' })).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential({ 'x-api-key': ' abc ' })).toEqual({ kind: 'key', key: 'abc' });
    expect(readCredential({ authorization: 'Bearer abc', 'x-api-key': 'abc' })).toEqual({
      kind: 'key',
      key: 'abc',
    });
  });

  it('distinguishes no credential from an unusable one', () => {
    expect(readCredential({})).toEqual({ kind: 'none' });
    for (const headers of [
      { authorization: 'Basic YTpi' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer a b' },
      { 'x-api-key': '' },
      { authorization: 'Bearer abc', 'x-api-key': 'other' },
      { 'x-api-key': ['a', 'b'] },
    ]) {
      expect(readCredential(headers), JSON.stringify(headers)).toEqual({ kind: 'malformed' });
    }
  });
});
