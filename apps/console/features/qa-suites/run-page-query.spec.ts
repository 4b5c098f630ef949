import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunPageQuery, runPageHref, type RunPageQuery } from './run-page-query';

function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href, 'http://console').searchParams);
}

describe('the run page’s URL', () => {
  it('reads a comparison, the changes filter and the opened cell', () => {
    expect(parseRunPageQuery({ against: 'latest', only: 'changes', case: 'invoice-1', target: '2' })).toEqual(
      {
        against: 'latest',
        onlyChanges: true,
        caseId: 'invoice-1',
        targetIndex: 2,
      },
    );
  });

  it('drops what cannot name a run, a case or a target, and the filter without a comparison', () => {
    expect(parseRunPageQuery({ against: '../x', only: 'changes', case: ' ', target: '-1' })).toEqual({
      against: undefined,
      onlyChanges: false,
      caseId: undefined,
      targetIndex: undefined,
    });
  });

  it('reads back whatever it writes', () => {
    const query = fc.record({
      against: fc.option(fc.constantFrom('latest', 'run_1', 'a-b'), { nil: undefined }),
      onlyChanges: fc.boolean(),
      caseId: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/), { nil: undefined }),
      targetIndex: fc.option(fc.nat(999), { nil: undefined }),
    });
    fc.assert(
      fc.property(query, (written: RunPageQuery) => {
        const expected = { ...written, onlyChanges: written.onlyChanges && written.against !== undefined };
        expect(parseRunPageQuery(paramsOf(runPageHref('run-1', written)))).toEqual(expected);
      }),
    );
  });
});
