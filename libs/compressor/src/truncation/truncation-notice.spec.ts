import { describe, expect, it } from 'vitest';
import {
  compactTruncationNotice,
  formatCount,
  hasTruncationNotice,
  omissionMarker,
  truncationNotice,
  TRUNCATION_NOTICE_HEADINGS,
} from './truncation-notice';

describe('truncation notice', () => {
  it('says in English that the data is incomplete, not to trust partial values or totals, and to re-query narrowly', () => {
    const notice = truncationNotice('en');
    expect(notice.startsWith(TRUNCATION_NOTICE_HEADINGS.en)).toBe(true);
    expect(notice).toContain('INCOMPLETE');
    expect(notice).toMatch(/partial values/);
    expect(notice).toMatch(/totals/);
    expect(notice).toMatch(/filters/);
    expect(notice).toMatch(/LIMIT\/pagination/);
    expect(notice).toMatch(/fewer columns/);
    expect(notice).not.toContain('read_tool_result');
    expect(notice.endsWith('\n---\n')).toBe(true);
  });

  it('has a French version with the same meaning', () => {
    const notice = truncationNotice('fr');
    expect(notice.startsWith(TRUNCATION_NOTICE_HEADINGS.fr)).toBe(true);
    expect(notice).toContain('INCOMPLÈTES');
    expect(notice).toMatch(/valeurs partielles/);
    expect(notice).toMatch(/totaux/);
    expect(notice).toMatch(/LIMIT\/pagination/);
    expect(notice).toMatch(/moins de colonnes/);
  });

  it('names the stored original and the read_tool_result tool when an id is given', () => {
    expect(truncationNotice('en', 'tr_42')).toContain('read_tool_result with this id');
    expect(truncationNotice('en', 'tr_42')).toContain('"tr_42"');
    expect(truncationNotice('fr', 'tr_42')).toContain('read_tool_result avec cet identifiant');
  });

  it('has a compact form that keeps the warning and the id', () => {
    const compact = compactTruncationNotice('en', 1_234_567, 'tr_9');
    expect(hasTruncationNotice(compact)).toBe(true);
    expect(compact).toContain('INCOMPLETE');
    expect(compact).toContain('1,234,567 characters');
    expect(compact).toContain('"tr_9"');
    expect(compact.length).toBeLessThan(truncationNotice('en', 'tr_9').length / 2);
    expect(compactTruncationNotice('fr', 10, 'x')).toContain('INCOMPLET');
  });

  it('recognizes notices in both languages and nothing else', () => {
    expect(hasTruncationNotice(truncationNotice('en') + 'data')).toBe(true);
    expect(hasTruncationNotice(truncationNotice('fr') + 'data')).toBe(true);
    expect(hasTruncationNotice('data ' + truncationNotice('en'))).toBe(false);
    expect(hasTruncationNotice('')).toBe(false);
  });

  it('formats counts the same on every machine', () => {
    expect(formatCount(0, 'en')).toBe('0');
    expect(formatCount(999, 'en')).toBe('999');
    expect(formatCount(1000, 'en')).toBe('1,000');
    expect(formatCount(10_485_760, 'en')).toBe('10,485,760');
    expect(formatCount(10_485_760, 'fr')).toBe('10\u202f485\u202f760');
  });

  it('states exactly what a marker omitted', () => {
    expect(omissionMarker({ characters: 1500 }, 'en')).toBe('[... 1,500 characters omitted ...]');
    expect(omissionMarker({ characters: 1500, lines: 20 }, 'en')).toBe(
      '[... 20 lines omitted (1,500 characters) ...]',
    );
    expect(omissionMarker({ characters: 1500, items: { omitted: 9812, total: 10000 } }, 'en')).toBe(
      '[... 9,812 of 10,000 items omitted (1,500 characters) ...]',
    );
    expect(omissionMarker({ characters: 1, lines: 1 }, 'en')).toBe('[... 1 line omitted (1 character) ...]');
    expect(omissionMarker({ characters: 3, lines: 1 }, 'fr')).toBe('[... 1 ligne omise (3 caractères) ...]');
    expect(omissionMarker({ characters: 1500, items: { omitted: 9812, total: 10000 } }, 'fr')).toBe(
      '[... 9\u202f812 éléments omis sur 10\u202f000 (1\u202f500 caractères) ...]',
    );
  });
});
