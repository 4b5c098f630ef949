import { describe, expect, it } from 'vitest';
import { formatCostMicros, parsePeopleFilters, toPeopleQuery } from './people-filters';

describe('people filters', () => {
  it('reads the search, portal, role and range from the URL and passes them to the API', () => {
    const { filters, problems } = parsePeopleFilters({
      q: 'ali',
      role: 'viewer',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(problems).toEqual([]);
    expect(toPeopleQuery(filters, 25)).toMatchObject({
      q: 'ali',
      role: 'viewer',
      from: '2026-01-01',
      to: '2026-01-31',
      limit: '25',
    });
  });

  it('names a role it does not know', () => {
    expect(parsePeopleFilters({ role: 'king' }).problems).toEqual([
      'Role must be admin, viewer, qa, user or portal.',
    ]);
  });

  it('shows cost in dollars, small amounts with four decimals', () => {
    expect(formatCostMicros(0)).toBe('$0.00');
    expect(formatCostMicros(1_230)).toBe('$0.0012');
    expect(formatCostMicros(12_300)).toBe('$0.01');
    expect(formatCostMicros(2_500_000)).toBe('$2.50');
  });
});
