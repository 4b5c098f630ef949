import { describe, expect, it } from 'vitest';
import { InMemoryToolResultStore } from './tool-result-store';

describe('InMemoryToolResultStore', () => {
  it('stores a result and pages through it', async () => {
    const store = new InMemoryToolResultStore();
    const id = await store.put({ toolCallId: 'c1', toolName: 'sql', content: 'abcdefghij' });
    expect(id).toMatch(/^tr_[0-9a-f]{24}$/);
    expect(await store.get(id, 0, 4)).toEqual({
      id,
      toolCallId: 'c1',
      toolName: 'sql',
      offset: 0,
      content: 'abcd',
      totalCharacters: 10,
      nextOffset: 4,
    });
    expect(await store.get(id, 8, 100)).toMatchObject({ content: 'ij', nextOffset: null });
    expect(await store.get(id, 50, 10)).toMatchObject({ offset: 10, content: '', nextOffset: null });
    expect(await store.get('tr_unknown', 0, 10)).toBeUndefined();
  });

  it('returns the same id when the same call’s same content is stored again', async () => {
    let next = 0;
    const store = new InMemoryToolResultStore({ createId: () => `id${next++}` });
    const content = 'x'.repeat(1000);
    expect(await store.put({ toolCallId: 'c1', toolName: 't', content })).toBe('id0');
    expect(await store.put({ toolCallId: 'c1', toolName: 't', content })).toBe('id0');
    expect(await store.put({ toolCallId: 'c1', toolName: 't', content: 'changed' })).toBe('id1');
    expect(await store.put({ toolCallId: 'c2', toolName: 't', content })).toBe('id2');
    expect(store.size).toBe(3);
  });

  it('never splits a surrogate pair, and always advances', async () => {
    const store = new InMemoryToolResultStore();
    const id = await store.put({ toolCallId: 'c', toolName: 't', content: 'a😀b😀' });
    expect(await store.get(id, 0, 2)).toMatchObject({ content: 'a', nextOffset: 1 });
    expect(await store.get(id, 2, 2)).toMatchObject({ offset: 1, content: '😀', nextOffset: 3 });
    const pages: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await store.get(id, offset, 1);
      pages.push(page!.content);
      offset = page!.nextOffset;
    }
    expect(pages).toEqual(['a', '😀', 'b', '😀']);
  });
});
