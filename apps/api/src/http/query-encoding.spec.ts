import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { undecodableQueryProblem } from './query-encoding';

describe('undecodableQueryProblem', () => {
  it.each([
    ['/v1/sessions?label=%ED%A0%80', 'query.label'],
    ['/v1/sessions?a=1&label=x%ED%B0%80y', 'query.label'],
    ['/v1/sessions?label=caf%E9', 'query.label'],
    ['/v1/sessions?label=%C0%80', 'query.label'],
    ['/v1/sessions?label=%E2%82', 'query.label'],
    ['/v1/sessions?label=%C3x%A9', 'query.label'],
    ['/v1/sessions?la%FFbel=x', 'query: the parameter name'],
  ])('refuses %s, naming %s', (url, named) => {
    expect(undecodableQueryProblem(url)).toContain(named);
  });

  it.each([
    '/v1/sessions',
    '/v1/sessions?',
    '/v1/sessions?label=100%',
    '/v1/sessions?label=%zz',
    '/v1/sessions?label=a+b&x',
  ])('accepts %s (a % that starts no escape stays literal)', (url) => {
    expect(undecodableQueryProblem(url)).toBeUndefined();
  });

  it('accepts every query URLSearchParams writes for well-formed text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), {
          maxLength: 4,
        }),
        (pairs) => {
          const search = new URLSearchParams(pairs).toString();
          expect(undecodableQueryProblem(`/v1/sessions?${search}`)).toBeUndefined();
        },
      ),
    );
  });
});
