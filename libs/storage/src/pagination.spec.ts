import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// Independent of the code under test: UTF-8 cannot carry an unpaired surrogate, so it does not survive a round trip.
const isWellFormed = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;
import {
  clampPageSize,
  containsPattern,
  decodeSequenceCursor,
  decodeTimeCursor,
  DEFAULT_PAGE_SIZE,
  encodeSequenceCursor,
  encodeTimeCursor,
  MAX_PAGE_SIZE,
} from './pagination';
import { StorageError } from './storage-error';

describe('pagination helpers', () => {
  it('clamps page sizes', () => {
    expect(clampPageSize(undefined)).toBe(DEFAULT_PAGE_SIZE);
    expect(clampPageSize(Number.NaN)).toBe(DEFAULT_PAGE_SIZE);
    expect(clampPageSize(0)).toBe(1);
    expect(clampPageSize(-5)).toBe(1);
    expect(clampPageSize(7.9)).toBe(7);
    expect(clampPageSize(10_000)).toBe(MAX_PAGE_SIZE);
    expect(clampPageSize(10_000, 500)).toBe(500);
  });

  it('round-trips cursors', () => {
    fc.assert(
      fc.property(fc.nat(), fc.string({ maxLength: 64 }), (createdAt, id) => {
        expect(decodeTimeCursor(encodeTimeCursor({ createdAt, id }))).toEqual({ createdAt, id });
      }),
    );
    fc.assert(
      fc.property(fc.nat(), (sequence) => {
        expect(decodeSequenceCursor(encodeSequenceCursor(sequence))).toBe(sequence);
      }),
    );
    expect(decodeTimeCursor(null)).toBeNull();
    expect(decodeSequenceCursor(undefined)).toBe(0);
  });

  it('rejects anything it did not produce', () => {
    fc.assert(
      fc.property(fc.string(), (garbage) => {
        try {
          decodeTimeCursor(garbage);
        } catch (error) {
          expect(error).toBeInstanceOf(StorageError);
        }
      }),
    );
    expect(() => decodeTimeCursor(encodeSequenceCursor(3))).toThrow(StorageError);
    expect(() => decodeSequenceCursor(encodeTimeCursor({ createdAt: 1, id: 'x' }))).toThrow(StorageError);
    expect(() => decodeTimeCursor('')).toThrow(StorageError);
  });

  // PostgreSQL refuses NUL mid-query; an unpaired surrogate or a bad byte would be changed silently.
  it.each([
    ['a NUL in the id', '["t",1,"\\u0000"]'],
    ['a NUL inside the id', '["t",1,"01a2\\u0000"]'],
    ['an escaped unpaired low surrogate', '["t",1,"\\udc00"]'],
    ['an escaped unpaired high surrogate', '["t",1,"x\\ud800y"]'],
    ['a NUL in the tag', '["\\u0000",1,"x"]'],
    ['a NUL in a sequence cursor', '["s",1,"\\u0000"]'],
  ])('refuses a hand-made cursor with %s', (_name, json) => {
    const cursor = Buffer.from(json, 'utf8').toString('base64url');
    expect(() => decodeTimeCursor(cursor)).toThrow(
      expect.objectContaining({ code: 'STORAGE_INVALID_CURSOR' }),
    );
    expect(() => decodeSequenceCursor(cursor)).toThrow(StorageError);
  });

  it('refuses bytes that are not UTF-8 and characters outside base64url', () => {
    const invalidUtf8 = Buffer.concat([
      Buffer.from('["t",1,"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"]'),
    ]);
    expect(() => decodeTimeCursor(invalidUtf8.toString('base64url'))).toThrow(StorageError);
    const valid = encodeTimeCursor({ createdAt: 1, id: 'x' });
    // Node's decoder would skip the stray characters and accept the rest.
    expect(() => decodeTimeCursor(`${valid.slice(0, 4)}!*${valid.slice(4)}`)).toThrow(StorageError);
    expect(() => decodeTimeCursor(`${valid}=`)).toThrow(StorageError);
  });

  it('accepts every cursor it produced and refuses any id with unstorable text', () => {
    fc.assert(
      fc.property(fc.nat(), fc.string({ unit: 'binary', maxLength: 64 }), (createdAt, id) => {
        const cursor = encodeTimeCursor({ createdAt, id });
        const storable = !id.includes('\u0000') && isWellFormed(id);
        if (storable) expect(decodeTimeCursor(cursor)).toEqual({ createdAt, id });
        else expect(() => decodeTimeCursor(cursor)).toThrow(StorageError);
      }),
    );
  });

  it('escapes LIKE wildcards', () => {
    expect(containsPattern('100%_a\\B')).toBe('%100\\%\\_a\\\\b%');
  });
});
