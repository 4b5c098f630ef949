import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error';
import { headerSentOnce, rawHeaderValues, readSingleHeader, type SingleHeader } from './raw-headers';

describe('rawHeaderValues', () => {
  it('finds every value of a name, any case, in order; a dangling name has none', () => {
    const raw = ['Host', 'a', 'X-Thing', '1', 'x-thing', '2', 'X-THING'];
    expect(rawHeaderValues(raw, 'x-thing')).toEqual(['1', '2']);
    expect(rawHeaderValues(raw, 'HOST')).toEqual(['a']);
    expect(rawHeaderValues(raw, 'absent')).toEqual([]);
  });
});

describe('readSingleHeader', () => {
  it.each<[string, readonly string[], SingleHeader]>([
    ['absent', ['Host', 'a'], { kind: 'absent' }],
    ['sent once', ['Host', 'a', 'Idempotency-Key', 'k1'], { kind: 'once', value: 'k1' }],
    ['sent once, empty', ['idempotency-key', ''], { kind: 'once', value: '' }],
    [
      'once with a comma (not split: the caller judges the value)',
      ['idempotency-key', 'a, b'],
      { kind: 'once', value: 'a, b' },
    ],
    ['twice, same value', ['Idempotency-Key', 'k1', 'idempotency-key', 'k1'], { kind: 'repeated', count: 2 }],
    [
      'three times, any case',
      ['IDEMPOTENCY-KEY', 'a', 'Idempotency-Key', 'b', 'idempotency-key', 'c'],
      { kind: 'repeated', count: 3 },
    ],
  ])('%s', (_case, raw, expected) => {
    expect(readSingleHeader(raw, 'Idempotency-Key')).toEqual(expected);
  });
});

describe('headerSentOnce', () => {
  const why = 'one key names one request';

  it.each<[string, readonly string[], string | undefined]>([
    ['absent', [], undefined],
    ['once', ['Idempotency-Key', 'k1'], 'k1'],
  ])('answers the value when %s', (_case, raw, expected) => {
    expect(headerSentOnce(raw, 'idempotency-key', why)).toBe(expected);
  });

  it.each<[string, readonly string[], number]>([
    ['twice', ['idempotency-key', 'a', 'Idempotency-Key', 'b'], 2],
    ['three times', ['idempotency-key', 'a', 'idempotency-key', 'a', 'idempotency-key', 'a'], 3],
  ])('refuses a header sent %s with a 400 saying to send it once', (_case, raw, count) => {
    const refusal = (() => {
      try {
        headerSentOnce(raw, 'Idempotency-Key', why);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `header.idempotency-key: send it once (one key names one request); got ${count}`,
    });
  });
});
