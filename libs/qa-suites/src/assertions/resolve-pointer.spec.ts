import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonValue } from '../test-support/arbitraries';
import { escapePointerToken, resolvePointer } from './resolve-pointer';

describe('resolvePointer', () => {
  const value = { items: [{ sku: 'A-1' }, { sku: 'B-2' }], 'a/b': 1, 'm~n': 2, '': 3, nothing: null };

  it('resolves "" to the whole value and follows members and indexes', () => {
    expect(resolvePointer(value, '')).toEqual({ found: true, value });
    expect(resolvePointer(value, '/items/1/sku')).toEqual({ found: true, value: 'B-2' });
    expect(resolvePointer(value, '/nothing')).toEqual({ found: true, value: null });
  });

  it('unescapes ~1 and ~0 and reads the empty key', () => {
    expect(resolvePointer(value, '/a~1b')).toEqual({ found: true, value: 1 });
    expect(resolvePointer(value, '/m~0n')).toEqual({ found: true, value: 2 });
    expect(resolvePointer(value, '/')).toEqual({ found: true, value: 3 });
  });

  it('finds nothing past the end, at "-", at leading zeros, in a primitive or on the prototype', () => {
    for (const pointer of [
      '/items/2',
      '/items/-',
      '/items/01',
      '/items/1/sku/0',
      '/constructor',
      '/__proto__',
      '/missing',
      'items',
    ]) {
      expect(resolvePointer(value, pointer)).toEqual({ found: false });
    }
  });

  it('finds every member of an object under its escaped key', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), jsonValue), (object) => {
        for (const [key, member] of Object.entries(object)) {
          expect(resolvePointer(object, `/${escapePointerToken(key)}`)).toEqual({
            found: true,
            value: member,
          });
        }
      }),
    );
  });
});
