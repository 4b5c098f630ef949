import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  it('escapes LIKE wildcards', () => {
    expect(containsPattern('100%_a\\B')).toBe('%100\\%\\_a\\\\b%');
  });
});
