import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageHref, parseSearchFilters, searchHref, snippetPieces, toSearchApiQuery } from './search-links';

describe('search links', () => {
  it('a result links to the message’s anchor in its transcript', () => {
    expect(messageHref('s-1', 'm-2')).toBe('/sessions/s-1#message-m-2');
  });

  it('the query survives the URL whatever it contains', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (query, cursor) => {
        const params = new URLSearchParams(searchHref(query, cursor).split('?')[1]);
        expect(params.get('q')).toBe(query);
        expect(params.get('cursor') ?? undefined).toBe(cursor);
      }),
    );
  });

  it('cuts a snippet at its highlights so the found words can be marked, keeping every character', () => {
    expect(
      snippetPieces('Routing is slow; the route', [
        { start: 0, length: 4 },
        { start: 21, length: 4 },
      ]),
    ).toEqual([
      { text: 'Rout', found: true },
      { text: 'ing is slow; the ', found: false },
      { text: 'rout', found: true },
      { text: 'e', found: false },
    ]);
    // Out of order, overlapping or past the end: ignored, never a lost or repeated character.
    expect(
      snippetPieces('abc', [
        { start: 1, length: 1 },
        { start: 0, length: 2 },
        { start: 2, length: 5 },
      ]),
    ).toEqual([
      { text: 'a', found: false },
      { text: 'b', found: true },
      { text: 'c', found: false },
    ]);
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.record({ start: fc.nat(20), length: fc.integer({ min: 1, max: 5 }) })),
        (snippet, highlights) => {
          expect(
            snippetPieces(snippet, highlights)
              .map((piece) => piece.text)
              .join(''),
          ).toBe(snippet);
        },
      ),
    );
  });

  it('sends the filters to the API, the last day included, and names a range the wrong way round', () => {
    const { filters, problems } = parseSearchFilters({
      q: 'rout',
      user: 'u-1',
      role: 'assistant',
      from: '2026-01-02',
      to: '2026-01-03',
    });
    expect(problems).toEqual([]);
    expect(toSearchApiQuery({ ...filters, q: 'rout' }, 25)).toMatchObject({
      q: 'rout',
      userId: 'u-1',
      role: 'assistant',
      createdFrom: '2026-01-02T00:00:00.000Z',
      createdBefore: '2026-01-04T00:00:00.000Z',
    });
    expect(parseSearchFilters({ q: 'x', from: '2026-02-01', to: '2026-01-01' }).problems).toEqual([
      'From must not be after To.',
    ]);
    expect(parseSearchFilters({ q: 'x', role: 'robot' }).problems).toEqual([
      'Role must be user, assistant, tool or system.',
    ]);
  });
});
