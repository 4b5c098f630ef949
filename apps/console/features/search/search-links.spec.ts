import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageHref, searchHref } from './search-links';

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
});
