import { describe, expect, it } from 'vitest';
import { schemaNameOf } from './schema-name';
import { toStorableJson } from './storable-json';

describe('toStorableJson', () => {
  it('replaces NUL and unpaired surrogates (which jsonb refuses) in values and keys, and keeps pairs', () => {
    expect(
      toStorableJson({ 'k\u0000': ['a\u0000b', 'x\uD800', '\uDC00y', '😀'], nested: { 'z\uDFFF': 1 } }),
    ).toEqual({
      'k\uFFFD': ['a\uFFFDb', 'x\uFFFD', '\uFFFDy', '😀'],
      nested: { 'z\uFFFD': 1 },
    });
  });

  it('behaves like JSON for the rest', () => {
    expect(
      toStorableJson({
        gone: undefined,
        infinite: Number.POSITIVE_INFINITY,
        list: [undefined],
        date: new Date(0),
      }),
    ).toEqual({
      infinite: null,
      list: [null],
      date: '1970-01-01T00:00:00.000Z',
    });
    expect(toStorableJson(undefined)).toBeNull();
  });
});

describe('schemaNameOf', () => {
  it.each([
    ['Invoice extraction v2', 'Invoice_extraction_v2'],
    ['  ✓ review/rating  ', 'review_rating'],
    ['✓✓✓', 'response'],
    ['x'.repeat(100), 'x'.repeat(64)],
  ])('%j → %j', (name, expected) => {
    expect(schemaNameOf(name)).toBe(expected);
  });
});
