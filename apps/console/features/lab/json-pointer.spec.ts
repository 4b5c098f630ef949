import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readablePointer, valueAtPointer } from './json-pointer';

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

describe('pointing a validation error at its value', () => {
  const answer = { items: [{ price: 3 }, { price: -1, 'a/b': { '~x': true } }], total: null };

  it.each([
    ['', answer],
    ['/items/1/price', -1],
    ['/total', null],
    ['/items/1/a~1b/~0x', true],
  ])('finds %s', (pointer, value) => {
    expect(valueAtPointer(answer, pointer)).toEqual({ found: true, value });
  });

  it.each(['/items/2', '/items/01', '/items/-1', '/missing', 'items', '/total/x', '/items/0/price/deeper'])(
    'finds nothing at %s',
    (pointer) => {
      expect(valueAtPointer(answer, pointer)).toEqual({ found: false });
    },
  );

  it('does not follow inherited properties', () => {
    expect(valueAtPointer({}, '/constructor')).toEqual({ found: false });
  });

  it('finds every leaf of any JSON value by its escaped path', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        for (const [key, value] of Object.entries(object))
          expect(valueAtPointer(object, `/${escapeToken(key)}`)).toEqual({ found: true, value });
      }),
    );
  });

  it('reads a pointer as a path of names', () => {
    expect(readablePointer('/items/2/a~1b')).toBe('items › 2 › a/b');
    expect(readablePointer('')).toBe('(the whole answer)');
  });
});
