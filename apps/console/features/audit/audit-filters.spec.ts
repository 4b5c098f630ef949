import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditHref, parseAuditFilters, toAuditQuery } from './audit-filters';

describe('audit filters live in the URL', () => {
  it('a URL built from filters parses back to the same filters', () => {
    const text = fc.option(
      fc.string({ minLength: 1, maxLength: 20 }).filter((value) => value.trim() === value && value !== ''),
      {
        nil: undefined,
      },
    );
    fc.assert(
      fc.property(
        fc.record({
          actor: text,
          action: text,
          outcome: fc.option(fc.constantFrom('succeeded', 'refused', 'failed' as const), { nil: undefined }),
          target: text,
          session: text,
          // A cursor is the API's `nextCursor` (base64url); any other text is dropped, not kept.
          cursor: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), { nil: undefined }),
        }),
        (filters) => {
          const defined = Object.fromEntries(
            Object.entries(filters).filter(([, value]) => value !== undefined),
          );
          const href = auditHref(defined);
          const params = Object.fromEntries(new URLSearchParams(href.split('?')[1] ?? ''));
          expect(parseAuditFilters(params).filters).toEqual(defined);
        },
      ),
    );
  });

  it('an inclusive "to" day becomes the API’s exclusive "before" the next day', () => {
    expect(toAuditQuery({ from: '2026-02-28', to: '2026-02-28' }, 25)).toMatchObject({
      from: '2026-02-28T00:00:00.000Z',
      before: '2026-03-01T00:00:00.000Z',
      limit: '25',
    });
  });

  it('filters by outcome, and names the field of one it does not know without quoting it', () => {
    expect(parseAuditFilters({ outcome: 'refused' }).filters).toEqual({ outcome: 'refused' });
    expect(toAuditQuery({ outcome: 'refused' }, 25)).toMatchObject({ outcome: 'refused' });
    const parsed = parseAuditFilters({ outcome: '<b>urgent</b>' });
    expect(parsed.filters).toEqual({});
    expect(parsed.problems).toEqual(['Outcome must be succeeded, refused or failed.']);
  });

  it.each(['2026-02-30', 'yesterday', '2026-1-1'])('names the field of a bad day (%s)', (day) => {
    const parsed = parseAuditFilters({ from: day, to: day });
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems[0]).toContain('From');
    expect(parsed.filters.from).toBeUndefined();
  });
});
